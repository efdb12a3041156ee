import Foundation
import SepiaCodecs
import SepiaImage
import SepiaVideo

#if canImport(Glibc)
import Glibc
#endif

extension PhotoLibrary {
    /// The file a browser plays for an asset's motion — a video's, or a Live Photo's movie: its playable version
    /// (a resource of type `fullSizeVideo` or `fullSizePairedVideo`) when one was made, else the original when it
    /// plays as it is (as judged at import, ``AssetResource/needsPlayableVersion``: the file is not read); nil when
    /// the asset has no motion, or when its playable version is still to be made
    /// (``preparePlayableVersion(ofAsset:progress:)``).
    public func playableResource(of asset: Asset) async throws(LibraryError) -> AssetResource? {
        let resources = try resources(for: asset)
        if let made = resources.first(where: \.isPlayableVersion) { return made }
        guard let motion = resources.first(where: \.isMotion) else { return nil }
        guard let judged = try? await judgedPlayback(of: motion) else { return nil }
        return judged.needsPlayableVersion == true ? nil : motion
    }

    /// `motion` with ``AssetResource/needsPlayableVersion`` known: as stored at import, or, for a movie imported
    /// before Sepia stored it, read from its headers once and kept in its row for every later request.
    func judgedPlayback(of motion: AssetResource) async throws(LibraryError) -> AssetResource {
        if motion.needsPlayableVersion != nil { return motion }
        let source = try await path(of: motion)
        let info: VideoInfo
        do {
            info = try VideoProbe.probe(path: source, format: motion.format, options: configuration.videoOptions)
        } catch {
            throw LibraryError.unreadable(error, file: motion.originalFilename)
        }
        var judged = motion
        judged.needsPlayableVersion = PlayableVideo.needsPlayableVersion(info)
        judged.decodedPixels = judged.needsPlayableVersion == true ? PlayableVideo.decodedPixels(info) : nil
        // Kept for the next request; a library another process writes gets the same answer from the same file.
        try? store.recordPlayback(of: judged)
        return judged
    }

    /// Makes an asset's playable version when its motion (a video, or a Live Photo's movie) does not play in a
    /// browser as it is (``PlayableVideo/needsPlayableVersion(_:)``): H.264 and AAC in an MP4, stored beside the
    /// original (in the bucket, for a library on object storage) as a resource of type `fullSizeVideo` (a
    /// Live Photo's: `fullSizePairedVideo`), PhotoKit's names for the version of the video shown. The work a
    /// server's job queue does after an upload; one that is killed midway leaves no trace and is done again.
    ///
    /// Returns whether a version was made: false when the asset is gone or in Recently Deleted, has no motion,
    /// already has one, or plays as it is. `progress` gets the fraction done about four times a second of decoded
    /// video; answering false stops the encode (it throws), as does cancelling the task, within a frame. The
    /// encode is bounded by ``LibraryConfiguration/videoOptions`` (its CPU budget, the frames its bytes allow):
    /// a video over them throws ``LibraryError/Code/unreadableImage`` with the reason.
    @discardableResult
    public func preparePlayableVersion(
        ofAsset assetID: String, progress: @escaping @Sendable (Double) -> Bool = { _ in true }
    ) async throws(LibraryError) -> Bool {
        guard let motion = try await motionToEncode(ofAsset: assetID) else { return false }
        let source = try await path(of: motion)
        let options = configuration.videoOptions
        let sweep = try store.latestSweep()
        let output = folder.temporaryFile(suffix: ".mp4")
        defer { unlink(output) }
        let cancellation = PlayableVideo.Cancellation()
        let encoded: Result<Void, CodecError> = await withTaskCancellationHandler {
            do throws(CodecError) {
                // The encode blocks its thread for as long as it takes: a thread of its own, not the cooperative pool's.
                try await Self.onOwnThread { () throws(CodecError) in
                    try PlayableVideo.encode(path: source, to: output, options: options, cancellation: cancellation, progress: progress)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            cancellation.cancel()
        }
        if case .failure(let error) = encoded { throw LibraryError.unreadable(error, file: motion.originalFilename) }
        let hash = try ContentHash.ofFile(output)
        let played: VideoInfo
        do {
            played = try VideoProbe.probe(path: output, options: options)
        } catch {
            throw LibraryError(.fileSystem, "the playable version cannot be read back: \(error.reason)", subject: assetID)
        }
        let stem = (motion.originalFilename as NSString).deletingPathExtension
        let resource = AssetResource(
            assetLocalIdentifier: assetID, type: motion.type == .pairedVideo ? .fullSizePairedVideo : .fullSizeVideo,
            originalFilename: (stem.isEmpty ? "video" : stem) + ".mp4", contentHash: hash, format: .mp4, byteCount: played.byteCount,
            pixelWidth: played.video.displaySize.width, pixelHeight: played.video.displaySize.height, duration: played.duration ?? 0)
        try await blobs.store(movingFileAt: output, as: resource.storedFile)
        do {
            let result = try store.commit([.addResource(assetID: assetID, resource)], files: blobs.fileCheck(sweeps: { _ in sweep }))
            didCommit(result)
        } catch {
            removeUnreferenced([resource.storedFile])
            throw error
        }
        return true
    }

    /// The pixels of the frames the encode of an asset's playable version would decode
    /// (``PlayableVideo/decodedPixels(_:)``, kept at import), which its cost is about proportional to; nil when
    /// there is nothing to encode (as ``preparePlayableVersion(ofAsset:progress:)`` would find) or the headers do
    /// not say.
    public func playableVersionPixels(ofAsset assetID: String) async throws(LibraryError) -> Int? {
        try await motionToEncode(ofAsset: assetID)?.decodedPixels
    }

    /// The motion of an asset whose playable version is still to be made, as judged at import; nil when the asset
    /// is gone or in Recently Deleted, has no motion, has its version already, or plays as it is.
    private func motionToEncode(ofAsset assetID: String) async throws(LibraryError) -> AssetResource? {
        guard let asset = try store.assets(ids: [assetID]).first, !asset.isRecentlyDeleted else { return nil }
        let resources = try resources(for: asset)
        guard let motion = resources.first(where: \.isMotion), !resources.contains(where: \.isPlayableVersion) else { return nil }
        let judged = try await judgedPlayback(of: motion)
        return judged.needsPlayableVersion == true ? judged : nil
    }

    /// Runs `work` on a new thread and waits for it without holding a thread of the cooperative pool. Asked
    /// for at ``RenderPriority/background``, the thread (and the encoder's threads it starts) runs at a nice
    /// value of ``backgroundNiceness``, so that an encode nobody waits for leaves the cores to the renders
    /// someone does.
    static func onOwnThread(_ work: @escaping @Sendable () throws(CodecError) -> Void) async throws(CodecError) {
        let background = RenderPriority.current == .background
        let result: Result<Void, CodecError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                #if canImport(Glibc)
                // A Linux thread has a nice value of its own (`who` 0 is the calling thread), and the threads it
                // creates inherit it.
                if background { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, backgroundNiceness) }
                #endif
                do throws(CodecError) {
                    try work()
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        try result.get()
    }

    /// The nice value of a background encode's threads: scheduled after every thread at the default 0.
    static let backgroundNiceness: Int32 = 10
}
