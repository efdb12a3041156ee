import Foundation

/// The demuxer a video's probe opened, kept for the first decode of its poster, which takes it rather than
/// opening the file again: an MKV, AVI or MPEG-TS video opened and shown (an import, an upload) opens FFmpeg's
/// demuxer once. Shared by the copies of a ``VideoSource``; the first decode takes it, later ones open their own.
final class KeptDemuxer: @unchecked Sendable {
    private let lock = NSLock()
    private var input: MediaInput?

    /// Keeps `input` (nil when the probe opened no demuxer: an MP4 or MOV file whose headers Sepia read itself).
    init(_ input: MediaInput?) {
        self.input = input
    }

    /// The kept input, with a new deadline and read budget, for the first caller; nil for the others.
    func take(deadline: Int64) -> MediaInput? {
        let taken = lock.withLock { () -> MediaInput? in
            let kept = input
            input = nil
            return kept
        }
        taken?.restartLimits(deadline: deadline)
        return taken
    }
}
