import Synchronization
import Testing

@testable import SepiaLibrary

/// Work shared by the callers that want the same thing (a rendition several requests ask for): done once, still
/// done for those who stay when one leaves, stopped when the last leaves.
@Suite struct SharedWorkTests {
    /// Work that runs until it is released or cancelled, counting how often it started and whether it saw its
    /// cancellation.
    final class Gate: Sendable {
        private let state = Mutex((starts: 0, released: false, cancelled: false))

        var starts: Int { state.withLock { $0.starts } }
        var cancelled: Bool { state.withLock { $0.cancelled } }
        func release() { state.withLock { $0.released = true } }

        func work() async throws -> Int {
            let start = state.withLock { state -> Int in
                state.starts += 1
                return state.starts
            }
            while !state.withLock({ $0.released }) {
                do {
                    try await Task.sleep(for: .milliseconds(5))
                } catch {
                    state.withLock { $0.cancelled = true }
                    throw error
                }
            }
            return start
        }
    }

    /// Polls `condition` for up to ten seconds.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("callers of one key share one work; one that leaves stops waiting at once, and the work finishes for the others")
    func leavingCallerDoesNotStopTheOthers() async throws {
        let shared = SharedWork<String, Int>()
        let gate = Gate()
        let first = Task { try await shared.run("a") { try await gate.work() } }
        let second = Task { try await shared.run("a") { try await gate.work() } }
        #expect(try await Self.eventually { shared.waiters(for: "a") == 2 && gate.starts == 1 })
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(shared.waiters(for: "a") == 1)
        #expect(!gate.cancelled)
        gate.release()
        #expect(try await second.value == 1)
        #expect(gate.starts == 1)
        #expect(shared.running == 0)
    }

    @Test("when the last caller leaves the work is cancelled, and a later caller starts it again")
    func lastCallerStopsTheWork() async throws {
        let shared = SharedWork<String, Int>()
        let gate = Gate()
        let callers = (0..<3).map { _ in Task { try await shared.run("a") { try await gate.work() } } }
        #expect(try await Self.eventually { shared.waiters(for: "a") == 3 })
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        #expect(try await Self.eventually { gate.cancelled && shared.running == 0 })
        #expect(shared.waiters(for: "a") == 0)
        // Not joined to the cancelled work: a work of its own.
        let later = Task { try await shared.run("a") { try await gate.work() } }
        #expect(try await Self.eventually { gate.starts == 2 })
        gate.release()
        #expect(try await later.value == 2)
    }

    @Test("a caller cancelled before it waits leaves at once; different keys are different works")
    func cancelledBeforeWaiting() async throws {
        let shared = SharedWork<String, Int>()
        let gate = Gate()
        let other = Task { try await shared.run("b") { 42 } }
        #expect(try await other.value == 42)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await shared.run("a") { try await gate.work() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await Self.eventually { shared.running == 0 })
    }
}
