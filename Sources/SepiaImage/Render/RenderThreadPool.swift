import Foundation

/// Dedicated worker threads (never the Swift concurrency pool or an event loop) that render jobs' tiles.
///
/// Jobs are served in order of arrival, spread over the workers: with one job queued every worker cooperates on
/// it; with several, worker `i` takes job `i` (modulo their number) and joins an older one when its own has no
/// tiles left. Spreading matters because a job's tiles often wait on one decode (libpng, libwebp and libheif
/// decode a whole frame on one thread): workers all queued on the oldest job would wait in turn on that
/// decode, while spread over the jobs each decodes its own file.
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
                let thread = Thread { [self] in self.workerLoop(index) }
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

    private func workerLoop(_ index: Int) {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                condition.wait()
            }
            if queue.isEmpty && stopping {
                condition.unlock()
                return
            }
            let job = queue[index % queue.count]
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
