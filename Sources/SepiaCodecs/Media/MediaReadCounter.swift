import Foundation

/// Counts, for the task that sets it as ``current``, how often files are sniffed (``ImageFormat/sniff(_:)``) and
/// how often a video's headers are read (a probe, the probe a ``MediaOpener`` makes, the one an encode starts
/// with): what holds an import to one sniff and one probe, and a playback request to none.
package final class MediaReadCounter: @unchecked Sendable {
    /// The counter of the current task and the tasks it starts; nil when nothing counts.
    @TaskLocal package static var current: MediaReadCounter?

    private let lock = NSLock()
    private var sniffCount = 0
    private var probeCount = 0

    /// A counter at zero.
    package init() {}

    /// How many sniffs were counted.
    package var sniffs: Int { lock.withLock { sniffCount } }
    /// How many reads of a video's headers were counted.
    package var probes: Int { lock.withLock { probeCount } }

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
}
