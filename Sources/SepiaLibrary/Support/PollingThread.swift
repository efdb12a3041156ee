import Foundation

/// Calls a closure every `interval` on a thread of its own until stopped or released.
///
/// A thread, not a task: the readings it takes (the kernel's memory pressure, the change log's generation) are
/// blocking calls that do not belong on the shared concurrency threads, and under load those threads can be
/// busy for seconds — exactly when a pressure reading or another process's change must still be seen. A stop
/// wakes the sleeping thread at once; a call already running finishes, and no new one starts.
final class PollingThread: Sendable {
    private let state = StopState()

    /// Starts polling: `body` runs first after one `interval`, then every `interval`.
    init(name: String, interval: Duration, body: @escaping @Sendable () -> Void) {
        let state = self.state
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) * 1e-18
        let thread = Thread {
            while state.sleep(seconds: seconds) { body() }
        }
        thread.name = name
        thread.start()
    }

    /// Stops polling.
    func stop() {
        state.stop()
    }

    deinit {
        stop()
    }
}

/// The stop flag and the condition the polling thread sleeps on.
private final class StopState: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false  // guarded by `condition`

    /// Sleeps for `seconds` or until stopped; true when the thread should poll again.
    func sleep(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopped && condition.wait(until: deadline) {}
        return !stopped
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
