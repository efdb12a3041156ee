import Dispatch
import Foundation
import SepiaCodecs
import SepiaImage
import SepiaVision

#if canImport(Glibc)
import Glibc
#endif

/// Finding faces: reading each asset's current version as the renditions are made from it (so every kind of media,
/// edits included, is read the same way), searching it with SepiaVision, and recording what was found (``recordFaces(_:for:algorithm:)``).
extension PhotoLibrary {
    /// Whether this library finds faces; its owner can turn them off (``setFindsFaces(_:)``).
    public func findsFaces() throws(LibraryError) -> Bool {
        try store.findsFaces()
    }

    /// Turns finding faces on or off. Off deletes every face and person, every name and every "Not this person"
    /// fact at once, and indexing records nothing until it is turned on again.
    public func setFindsFaces(_ on: Bool) throws(LibraryError) {
        try store.setFindsFaces(on)
        noteChange()
    }

    /// Finds the faces of `asset` and records them; nothing when faces are off.
    ///
    /// - Throws: ``LibraryError`` when the asset cannot be read, and `VisionError` when the face models or the engine
    ///   are missing (``SepiaVision/VisionError/Code/modelsMissing``, which says what installs them).
    @discardableResult
    public func indexFaces(of asset: Asset, indexing: FaceIndexing = FaceIndexing()) async throws -> [Face] {
        guard try findsFaces() else { return [] }
        let found = try await detectFaces(in: asset, indexing: indexing)
        return try recordFaces(found, for: asset.id, algorithm: FaceIndexing.algorithm)
    }

    /// Finds the faces of the assets not yet indexed by this algorithm, `concurrency` at a time (by default one per
    /// processor), `limit` at most,
    /// calling `progress` with the number done after each. An asset that cannot be read is reported and left for
    /// the next run; missing models stop the run with their error.
    public func indexFaces(
        limit: Int = .max, concurrency: Int? = nil, indexing: FaceIndexing = FaceIndexing(),
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> FaceIndexingReport {
        var report = FaceIndexingReport()
        guard try findsFaces() else {
            report.facesOff = true
            return report
        }
        let concurrency = max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        var last: Asset?
        var done = 0
        while done < limit {
            try Task.checkCancellation()
            let batch = try assetsNeedingFaceIndex(algorithm: FaceIndexing.algorithm, after: last, limit: min(64, limit - done))
            guard let end = batch.last else { break }
            last = end
            let results = try await withThrowingTaskGroup(of: (Asset, Result<[DetectedFace], any Error>).self) { group in
                var results: [(Asset, Result<[DetectedFace], any Error>)] = []
                var next = batch.makeIterator()
                for _ in 0..<concurrency {
                    guard let asset = next.next() else { break }
                    group.addTask { await self.attemptDetection(in: asset, indexing: indexing) }
                }
                while let result = try await group.next() {
                    results.append(result)
                    if let asset = next.next() {
                        group.addTask { await self.attemptDetection(in: asset, indexing: indexing) }
                    }
                }
                return results
            }
            var found: [String: [DetectedFace]] = [:]
            for (asset, result) in results {
                switch result {
                case .success(let faces):
                    found[asset.id] = faces
                    report.faces += faces.count
                case .failure(let error as VisionError)
                where error.code != VisionError.Code.imageFailed && error.code != VisionError.Code.engineFailed:
                    throw error
                case .failure(let error):
                    report.failures.append(FaceIndexingReport.Failure(assetID: asset.id, reason: "\(error)"))
                }
            }
            let recorded = try recordFaces(found, algorithm: FaceIndexing.algorithm)
            guard try findsFaces() else {
                report.facesOff = true
                return report
            }
            report.indexed += recorded.count
            done += batch.count
            progress?(done)
        }
        return report
    }

    private func attemptDetection(in asset: Asset, indexing: FaceIndexing) async -> (Asset, Result<[DetectedFace], any Error>) {
        do {
            return (asset, .success(try await detectFaces(in: asset, indexing: indexing)))
        } catch {
            return (asset, .failure(error))
        }
    }

    /// The faces in `asset`'s current version, upright, with their prints, without recording them.
    func detectFaces(in asset: Asset, indexing: FaceIndexing) async throws -> [DetectedFace] {
        // The image is read as the rendition renderer reads it (a photo, a Live Photo's still, a RAW file, a video's
        // poster frame, an edit's render), and decoded at the size the search asks for.
        let image = try await ImageManager(library: self).fullImage(asset, version: asset.contentVersion)
        let handler = ImageRequestHandler(image, context: renderContext)
        var configured = GenerateFacePrintRequest()
        configured.detection.models = indexing.models
        configured.detection.maximumSearchedPixels = indexing.maximumSearchedPixels
        let request = configured
        // dlib's search is long, blocking work: it runs on a thread of its own, not on one of the tasks' threads.
        let prints = try await Self.onFaceThread { try request.perform(on: handler) }
        return prints.map { print in
            let box = print.face.boundingBox.topLeftOrigin
            return DetectedFace(
                boundingBox: FaceBox(x: box.x, y: box.y, width: box.width, height: box.height), confidence: print.face.confidence,
                descriptor: print.descriptor)
        }
    }

    /// Runs `work` on a thread of its own, outside Swift's cooperative pool, at the caller's render priority. Asked
    /// for at ``SepiaImage/RenderPriority/background`` (the server's job), its renders are background renders and the
    /// thread runs at a nice value of ``backgroundNiceness`` (as a background video encode does), so that a search
    /// nobody waits for leaves the cores to the renders someone does.
    static func onFaceThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let priority = RenderPriority.current
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                #if canImport(Glibc)
                // A Linux thread has a nice value of its own (`who` 0 is the calling thread).
                if priority == .background { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, backgroundNiceness) }
                #endif
                continuation.resume(with: Result { try RenderPriority.$current.withValue(priority) { try work() } })
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
