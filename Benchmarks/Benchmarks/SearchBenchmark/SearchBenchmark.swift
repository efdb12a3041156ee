// Not a Benchmark-framework benchmark: scripts/bench-search runs it. Fills a library with N assets' rows (varied
// metadata, seven in ten located near one of 40 cities), then times what the search box and the map ask of it
// through the library's API, as the server asks it: the first page of a search, suggestions (and suggestions just
// after a change, when the keywords are counted again), the world's and a city's markers, and the Duplicates view's groups (random perceptual hashes, one in twenty a near copy). Prints
// JSON, with the five slowest searches and prefixes by their own p95.
//
//     SearchBenchmark LIBRARY [--count N] [--database postgres://…] [--rounds R]
import Foundation
import GRDB
@_spi(Benchmarks) import SepiaLibrary

@main
struct SearchBenchmark {
    static let cities: [(String, Double, Double)] = [
        ("Lisbon", 38.7139, -9.1394), ("Porto", 41.1496, -8.6109), ("Madrid", 40.4168, -3.7038), ("Paris", 48.8566, 2.3522),
        ("London", 51.5072, -0.1276), ("Berlin", 52.52, 13.405), ("Munich", 48.1374, 11.5755), ("Rome", 41.9028, 12.4964),
        ("Vienna", 48.2082, 16.3738), ("Prague", 50.0755, 14.4378), ("Stockholm", 59.3293, 18.0686), ("Oslo", 59.9139, 10.7522),
        ("Reykjavik", 64.1466, -21.9426), ("Athens", 37.9838, 23.7275), ("Istanbul", 41.0082, 28.9784), ("Cairo", 30.0444, 31.2357),
        ("Nairobi", -1.2921, 36.8219), ("Cape Town", -33.9249, 18.4241), ("Dubai", 25.2048, 55.2708), ("Mumbai", 19.076, 72.8777),
        ("Delhi", 28.7041, 77.1025), ("Bangkok", 13.7563, 100.5018), ("Singapore", 1.3521, 103.8198), ("Hong Kong", 22.3193, 114.1694),
        ("Tokyo", 35.6762, 139.6503), ("Seoul", 37.5665, 126.978), ("Sydney", -33.8688, 151.2093), ("Auckland", -36.8485, 174.7633),
        ("Honolulu", 21.3099, -157.8581), ("Vancouver", 49.2827, -123.1207), ("San Francisco", 37.7749, -122.4194),
        ("Los Angeles", 34.0522, -118.2437), ("Denver", 39.7392, -104.9903), ("Chicago", 41.8781, -87.6298),
        ("New York", 40.7128, -74.006), ("Toronto", 43.6532, -79.3832), ("Mexico City", 19.4326, -99.1332), ("Havana", 23.1136, -82.3666),
        ("Rio de Janeiro", -22.9068, -43.1729), ("Buenos Aires", -34.6037, -58.3816),
    ]

    static let queries = [
        "lisbon", "paris", "tokyo", "new york", "portugal", "japan", "summer 2019", "favorites", "beach julia", "iphone",
        "canon 2015", "cafe", "zoe", "lis", "mar", "dinner ana", "december 2020", "2018-07", "sunset favorites", "family holiday",
        "soren", "garden 2012", "pixel", "germany summer", "wedding lea", "harbour night", "2021-03-14", "snow", "dog", "museum rome",
    ]

    static let prefixes = ["l", "li", "lis", "pa", "par", "be", "ca", "ju", "zo", "ip", "ge", "sum", "fa", "mu", "to", "ne"]

    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(at...(at + 1)) }
            return arguments[at + 1]
        }
        let count = option("--count").flatMap(Int.init) ?? 100_000
        let rounds = option("--rounds").flatMap(Int.init) ?? 10
        let database = option("--database")
        guard arguments.count == 1 else {
            FileHandle.standardError.write(Data("usage: SearchBenchmark LIBRARY [--count N] [--database URL] [--rounds R]\n".utf8))
            exit(64)
        }
        var configuration = LibraryConfiguration(watchesMemoryPressure: false)
        if let database { configuration.database = .postgreSQL(try PostgresLocation(parsing: database)) }
        let library = try PhotoLibrary.open(at: arguments[0], configuration: configuration)
        defer { library.close() }

        var report: [String: Any] = ["database": database == nil ? "sqlite" : "postgresql"]
        let existing = try library.fetchAssets().count
        if existing < count {
            let start = ContinuousClock.now
            _ = try library.insertVariedRowsWithoutFiles(
                count: count - existing, seed: 42, places: cities.map { (latitude: $0.1, longitude: $0.2) })
            report["insertSeconds"] = seconds(ContinuousClock.now - start)
        }
        report["assets"] = try library.fetchAssets().count
        report["placed"] = try library.placesStatus().placedAssets

        func measure(_ body: () throws -> Void) rethrows -> [Double] {
            var times: [Double] = []
            for _ in 0..<rounds {
                let start = ContinuousClock.now
                try body()
                times.append(seconds(ContinuousClock.now - start) * 1000)
            }
            return times
        }
        var search: [Double] = []
        var found: [String: Int] = [:]
        var slowest: [String: Double] = [:]
        for query in queries {
            let times = try measure {
                var options = FetchOptions()
                options.predicate = try library.predicate(for: SearchQuery(query))
                options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)]
                let page = try library.fetchAssetPage(options: options, limit: 100)
                found[query] = page.total
            }
            search += times
            slowest["search " + query] = summary(times)["p95"]
        }
        var suggestions: [Double] = []
        for prefix in prefixes {
            let times = try measure { _ = try library.searchSuggestions(for: prefix) }
            suggestions += times
            slowest["suggest " + prefix] = summary(times)["p95"]
        }
        // Suggestions after a change: the keywords counted again (a one-letter word, the most places to count).
        let recounted = try measure {
            library.forgetCountedKeywords()
            _ = try library.searchSuggestions(for: "l")
        }
        let world = try measure { _ = try library.mapMarkers(in: .world, zoom: 2) }
        let city = try measure {
            _ = try library.mapMarkers(in: MapRegion(south: 38.6, west: -9.3, north: 38.85, east: -9.0), zoom: 12)
        }
        report["hashesInserted"] = try library.insertRandomHashes(seed: 7)
        var groupCount = 0
        let duplicates = try measure { groupCount = try library.duplicateGroups().count }
        report["duplicateGroups"] = groupCount
        report["duplicatesMilliseconds"] = summary(duplicates)
        report["searchMilliseconds"] = summary(search)
        report["suggestionsMilliseconds"] = summary(suggestions)
        report["suggestionsAfterChangeMilliseconds"] = summary(recounted)
        report["mapWorldMilliseconds"] = summary(world)
        report["mapCityMilliseconds"] = summary(city)
        report["found"] = found
        // The five slowest queries and prefixes by their own p95, to show where a p95 over all of them comes from.
        report["slowestMilliseconds"] = Dictionary(
            uniqueKeysWithValues: slowest.sorted { $0.value > $1.value }.prefix(5).map { ($0.key, $0.value) })
        if database == nil {
            let queue = try DatabaseQueue(
                path: arguments[0] + "/library.sqlite",
                configuration: {
                    var c = Configuration(); c.readonly = true; return c
                }())
            let sizes = try await queue.read { db -> (Int?, Int?, Int?) in
                (
                    try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"),
                    try? Int.fetchOne(db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'assetSearch%'"),
                    try? Int.fetchOne(db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name = 'asset_visibleByKey'")
                )
            }
            report["databaseBytes"] = sizes.0
            report["searchIndexBytes"] = sizes.1
            // The index of the visible assets' keys, which a search's count reads, is the search's too.
            report["visibleKeyIndexBytes"] = sizes.2
        }
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    }

    static func summary(_ values: [Double]) -> [String: Double] {
        let sorted = values.sorted()
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
        return ["p50": at(0.5), "p95": at(0.95), "max": sorted.last ?? 0]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
