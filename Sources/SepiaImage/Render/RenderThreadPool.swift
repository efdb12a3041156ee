import Foundation

/// Dedicated worker threads (never the Swift concurrency pool or an event loop) that render jobs' tiles.
/// Jobs are served first come, first served; all workers cooperate on the oldest job that has tiles left.
///
/// Sendable: mutable state is guarded by `condition`.
final class RenderThreadPool: @unchecked Sendable {
    let threadCount: Int
    private let condition = NSCondition()
    private var queue: [RenderJob] = []
    private var started = false
    private var stopping = false

    init(threadCount: Int) {
        self.threadCount = threadCount
    }

    /// Queues a job; workers start on first use.
    func submit(_ job: RenderJob) {
        condition.lock()
        if !started {
            started = true
            for index in 0..<threadCount {
                let thread = Thread { [self] in self.workerLoop() }
                thread.name = "sepia.render.\(index)"
                thread.start()
            }
        }
        queue.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the workers exit once the queue is empty.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func workerLoop() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                condition.wait()
            }
            if queue.isEmpty && stopping {
                condition.unlock()
                return
            }
            let job = queue[0]
            condition.unlock()

            job.work()

            condition.lock()
            if job.isExhausted, let index = queue.firstIndex(where: { $0 === job }) {
                queue.remove(at: index)
            }
            condition.unlock()
        }
    }
}
