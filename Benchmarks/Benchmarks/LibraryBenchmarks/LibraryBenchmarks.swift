import Benchmark
import Foundation
import SepiaCodecs
@_spi(Benchmarks) import SepiaLibrary

/// The database the benchmarks run on: SQLite in the library folder, or, when `SEPIA_BENCH_DATABASE` names a
/// PostgreSQL database (`postgres://USER@HOST:PORT/DB`, as `scripts/postgres` prints), a new schema there.
func benchmarkDatabase() -> LibraryDatabase {
    guard let url = ProcessInfo.processInfo.environment["SEPIA_BENCH_DATABASE"], !url.isEmpty else { return .libraryFolder }
    do {
        let schema = "bench_" + UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(12)
        return .postgreSQL(try PostgresLocation(parsing: url).schema(String(schema)))
    } catch {
        fatalError("SEPIA_BENCH_DATABASE: \(error)")
    }
}

/// A library in a new temporary folder with `count` assets (rows only: these benchmarks measure the database).
func makeLibrary(assets count: Int) -> (PhotoLibrary, [String]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-bench-\(UUID().uuidString)").path
    do {
        let library = try PhotoLibrary.open(
            at: folder, configuration: LibraryConfiguration(watchesMemoryPressure: false, database: benchmarkDatabase()))
        var ids: [String] = []
        // Dates interleave across batches so that sorting by date is not insertion order.
        for batch in 0..<(count + 9_999) / 10_000 {
            let n = min(10_000, count - batch * 10_000)
            ids += try library.insertRowsWithoutFiles(
                count: n, start: Date(timeIntervalSince1970: 1_500_000_000 + Double(batch) * 7), interval: 97)
        }
        return (library, ids)
    } catch {
        fatalError("cannot make the benchmark library: \(error)")
    }
}

/// The libraries the benchmarks read, each made on first use: package-benchmark runs every benchmark in a
/// process of its own, which then fills only the library it measures (a million rows take minutes on
/// PostgreSQL).
///
/// PhotoKit's "latest photos" grid: 100 000 assets sorted by date, newest first.
let hundredThousand = makeLibrary(assets: 100_000).0
/// A club's or a studio's library.
let million = makeLibrary(assets: 1_000_000).0
/// A 10 000-asset result, and the library after 100 changes to it in one commit: 40 property changes, 30
/// deletions, 30 date changes (moves).
let changed: (library: PhotoLibrary, before: FetchResult<Asset>) = {
    let (medium, ids) = makeLibrary(assets: 10_000)
    do {
        let before = try medium.fetchAssets()
        let shuffled = ids.shuffled()
        let task = Task {
            try await medium.performChanges { changes in
                for (i, id) in shuffled[0..<40].enumerated() {
                    changes.setLocation(GPSLocation(latitude: Double(i), longitude: 10), for: id)
                }
                changes.deleteAssets(Array(shuffled[40..<70]))
                for (i, id) in shuffled[70..<100].enumerated() {
                    changes.setCreationDate(Date(timeIntervalSince1970: 1_400_000_000 + Double(i) * 1_000_000), for: id)
                }
            }
        }
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            _ = try? await task.value
            semaphore.signal()
        }
        semaphore.wait()
        return (medium, before)
    } catch {
        fatalError("\(error)")
    }
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: 2, maxDuration: .seconds(5),
        maxIterations: 50)

    // The first page of 100 of the grid, as PhotoKit's model reads it: a FetchResult, then its first objects.
    Benchmark("Library.Fetch.100k.firstPage") { benchmark in
        for _ in benchmark.scaledIterations {
            let result = try hundredThousand.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.creationDate, ascending: false)]))
            blackHole(try result.objects(in: 0..<100))
        }
    }
    // The same first page as the web app and the HTTP API ask for it: keyset paging, and the library's kept
    // count for the total.
    Benchmark("Library.Page.100k.firstPage") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try hundredThousand.fetchAssetPage(
                    options: FetchOptions(sortDescriptors: [AssetSortDescriptor(.creationDate, ascending: false)]), limit: 100))
        }
    }
    Benchmark("Library.Page.1M.firstPage") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try million.fetchAssetPage(options: FetchOptions(sortDescriptors: [AssetSortDescriptor(.creationDate, ascending: false)]), limit: 100))
        }
    }
    Benchmark("Library.Fetch.100k.count") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try hundredThousand.fetchAssets().count)
        }
    }
    Benchmark("Library.ChangeDetails.10k.after100") { benchmark in
        for _ in benchmark.scaledIterations {
            let details = try changed.library.changeDetails(from: changed.before)
            precondition(details.removedIndexes?.count == 30 && details.changedIndexes?.count == 70, "unexpected details")
            blackHole(details)
        }
    }
}
