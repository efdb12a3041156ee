import Foundation

/// Counts, for the task that sets it as ``current``, how often files are sniffed (``ImageFormat/sniff(_:)``), how
/// often a video's headers are read (a probe, the probe a ``MediaOpener`` makes, the one an encode starts with)
/// and how often FFmpeg's demuxer opens a video (each `avformat_open_input`, with the stream analysis that may
/// follow on the same input): what holds an import and an upload to one sniff, one probe and at most one demuxer,
/// and a playback request to none.
package final class MediaReadCounter: @unchecked Sendable {
    /// The counter of the current task and the tasks it starts; nil when nothing counts.
    @TaskLocal package static var current: MediaReadCounter?

    private let lock = NSLock()
    private var sniffCount = 0
    private var probeCount = 0
    private var demuxerOpenCount = 0

    /// A counter at zero.
    package init() {}

    /// How many sniffs were counted.
    package var sniffs: Int { lock.withLock { sniffCount } }
    /// How many reads of a video's headers were counted.
    package var probes: Int { lock.withLock { probeCount } }
    /// How many times a demuxer was opened.
    package var demuxerOpens: Int { lock.withLock { demuxerOpenCount } }

    /// Counts a sniff in the current task's counter, if any.
    package static func countSniff() {
        guard let counter = current else { return }
        counter.lock.withLock { counter.sniffCount += 1 }
    }

    /// Counts a read of a video's headers in the current task's counter, if any.
    package static func countProbe() {
        guard let counter = current else { return }
        counter.lock.withLock { counter.probeCount += 1 }
    }

    /// Counts the opening of a demuxer. A video's poster is decoded on a render thread, outside the task that
    /// opened the video, so the video keeps the counter of that task (``current`` when it was opened) and counts
    /// there.
    package func countDemuxerOpen() {
        lock.withLock { demuxerOpenCount += 1 }
    }
}
