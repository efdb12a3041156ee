import Foundation
import Logging
import SepiaImage
import SepiaLibrary
import SepiaVision
import Synchronization

/// One run of a library's `faces` job: finds the faces of a few assets not indexed yet, ``parallel`` at a time, and records
/// them, grouped into people; at most ``batch`` assets, and none started after ``runTime`` (a 12-megapixel photo
/// takes a second or two of a core). When more remain, the run ends with ``JobOutcome/again`` and the job is due
/// again behind the jobs added meanwhile, so that an upload's preview waits for about one asset's search; when
/// none remains, the pass is over. Between assets it stops for a shutdown, and renews its lease with its progress
/// (the part of the library indexed, which the change stream reports).
///
/// An asset that cannot be read is left for the next pass: the run goes on after it, and this server remembers
/// where its pass is (``FaceIndexingState``), so that a damaged file is tried once a pass rather than first in
/// every run. When the face models are missing or damaged, or the engine cannot be loaded, nothing can be
/// indexed on this server: the run says so once in the log, marks the job done, and the status route reports
/// `modelsMissing` until an asset is indexed again.
struct FaceIndexJob {
    let queue: JobQueue
    let state: FaceIndexingState
    let indexing: FaceIndexing
    /// The most assets a run indexes.
    let batch: Int
    /// The assets searched at once (by default one per processor): each search runs on a thread of its own, at a
    /// nice value of 10 with background renders, so that the renders people wait for go first.
    var parallel = ProcessInfo.processInfo.activeProcessorCount
    /// How long a run goes on starting assets: the first is always searched.
    var runTime: Duration = .seconds(2)
    /// Called after each asset is indexed (or given up for this pass), before the next is started: where a test stops
    /// a run at a known point.
    var assetFinished: (@Sendable () -> Void)?
    let lease: TimeInterval
    let metrics: ServerMetrics
    let logger: Logger

    func run(_ job: Job, in library: PhotoLibrary, control: JobControl) async throws -> JobOutcome {
        guard try library.findsFaces() else {
            state.endPass(library: job.library)
            return .done
        }
        let algorithm = FaceIndexing.algorithm
        let status = try library.faceIndexStatus(algorithm: algorithm)
        let total = max(1, status.indexedAssets + status.assetsToIndex)
        var indexed = status.indexedAssets
        var cursor = state.cursor(library: job.library)
        var done = 0
        let start = ContinuousClock.now
        while done < max(1, batch) && (done == 0 || ContinuousClock.now - start < runTime) {
            try Task.checkCancellation()
            let assets = try library.assetsNeedingFaceIndex(
                algorithm: algorithm, after: cursor, limit: max(1, min(parallel, max(1, batch) - done)))
            guard !assets.isEmpty else { break }
            let results = await Self.index(assets, in: library, indexing: indexing)
            for (asset, result) in zip(assets, results) {
                do {
                    let faces = try result.get()
                    indexed += 1
                    metrics.recordFaceIndexing(outcome: "indexed", faces: faces.count)
                    if let solved = state.clearProblem() {
                        logger.info("faces are found again", metadata: ["problem": "\(solved)"])
                    }
                } catch let error as VisionError where Self.stopsIndexing(error) {
                    state.endPass(library: job.library)
                    if state.noteProblem(error.message) {
                        logger.error("faces cannot be found on this server", metadata: ["error": "\(error.message)"])
                    }
                    metrics.recordFaceIndexing(outcome: "modelsMissing", faces: 0)
                    return .done
                } catch {
                    // A shutdown can interrupt a render: the asset was not tried, and is tried first next time.
                    if Task.isCancelled || Self.isCancellation(error) { throw CancellationError() }
                    // The library's storage or database failing: the job is retried later, from this asset.
                    if let error = error as? LibraryError, [.database, .storageUnavailable].contains(error.code) { throw error }
                    metrics.recordFaceIndexing(outcome: "failed", faces: 0)
                    logger.warning(
                        "cannot find the faces of an asset; it is tried again on the next pass",
                        metadata: ["sepia.asset.id": "\(asset.id)", "error": "\(error)"])
                }
                cursor = asset
                state.setCursor(asset, library: job.library)
                done += 1
                assetFinished?()
                do {
                    if try !queue.extend(job, lease: lease, progress: Double(indexed) / Double(total)) {
                        control.stop(.withdrawn)
                        throw CancellationError()
                    }
                } catch let error as CancellationError {
                    throw error
                } catch {
                    logger.warning("cannot record a job's lease or progress", metadata: ["job": "\(job.id)", "error": "\(error)"])
                }
            }
        }
        if try !library.assetsNeedingFaceIndex(algorithm: algorithm, after: cursor, limit: 1).isEmpty { return .again }
        state.endPass(library: job.library)
        return .done
    }

    /// Indexes `assets` at once, each on its own face thread; their results in the same order.
    private static func index(_ assets: [Asset], in library: PhotoLibrary, indexing: FaceIndexing) async -> [Result<[Face], any Error>] {
        let results = Results(count: assets.count)
        await withTaskGroup(of: Void.self) { group in
            for index in assets.indices {
                let asset = assets[index]
                group.addTask {
                    do {
                        results.set(index, .success(try await library.indexFaces(of: asset, indexing: indexing)))
                    } catch {
                        results.set(index, .failure(error))
                    }
                }
            }
        }
        return results.all
    }

    /// The results of assets indexed at once, each in its place.
    private final class Results: Sendable {
        private let values: Mutex<[Result<[Face], any Error>?]>

        init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }

        func set(_ index: Int, _ result: Result<[Face], any Error>) { values.withLock { $0[index] = result } }

        /// Every result; an asset whose search did not end (cancelled) as a cancellation.
        var all: [Result<[Face], any Error>] { values.withLock { $0.map { $0 ?? .failure(CancellationError()) } } }
    }

    /// Whether an error means no asset can be indexed on this server (rather than this asset cannot be).
    static func stopsIndexing(_ error: VisionError) -> Bool {
        [.modelsMissing, .modelDamaged, .engineUnavailable].contains(error.code)
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        switch error {
        case is CancellationError: true
        case let error as VisionError: error.code == .cancelled
        case RenderError.cancelled: true
        default: false
        }
    }
}
