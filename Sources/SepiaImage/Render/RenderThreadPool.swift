import Foundation
import Synchronization

/// Dedicated worker threads (never the Swift concurrency pool or an event loop) that render jobs' tiles.
///
/// Jobs of the highest priority queued are served first (``RenderPriority``), so that background work, such as
/// a server's thumbnails after an import, makes way for the render a person is waiting for. A worker on a
/// lower-priority job leaves it after its current tile when a higher one arrives, and comes back to it when
/// nothing higher is left.
///
/// Among jobs of one priority, workers spread in order of arrival: with one job queued every worker
/// cooperates on it; with several, worker `i` takes job `i` (modulo their number) and joins an older one when
/// its own has no tiles left. Spreading matters because a job's tiles often wait on one decode (libpng,
/// libwebp and libheif decode a whole frame on one thread): workers all queued on the oldest job would wait
/// in turn on that decode, while spread over the jobs each decodes its own file.
///
/// Sendable: mutable state is guarded by `condition`; `topPriority` is read without it between tiles.
final class RenderThreadPool: @unchecked Sendable {
    let threadCount: Int
    private let condition = NSCondition()
    private var queue: [RenderJob] = []
    private var started = false
    private var stopping = false
    /// The highest ``RenderPriority`` raw value among the queued jobs (-1 when none is queued).
    private let topPriority = Atomic(-1)

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
        if job.priority.rawValue > topPriority.load(ordering: .relaxed) {
            topPriority.store(job.priority.rawValue, ordering: .relaxed)
        }
        condition.broadcast()
        condition.unlock()
    }

    /// How many jobs have tiles left or in progress: not those that have ended and that a worker has yet to take
    /// off the queue, whose renders have already returned.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.reduce(0) { count, job in job.isFinished ? count : count + 1 }
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
            let job = pick(for: index)
            condition.unlock()

            let priority = job.priority.rawValue
            job.work(until: { self.topPriority.load(ordering: .relaxed) > priority })

            condition.lock()
            if job.isExhausted, let index = queue.firstIndex(where: { $0 === job }) {
                queue.remove(at: index)
                topPriority.store(queue.map(\.priority.rawValue).max() ?? -1, ordering: .relaxed)
            }
            condition.unlock()
        }
    }

    /// Worker `index`'s job: among the queued jobs of the highest priority, the `index`-th (modulo their
    /// number) in order of arrival. Call with `condition` locked and the queue not empty.
    private func pick(for index: Int) -> RenderJob {
        let top = topPriority.load(ordering: .relaxed)
        var count = 0
        for job in queue where job.priority.rawValue == top { count += 1 }
        guard count > 0 else { return queue[index % queue.count] }
        var position = index % count
        for job in queue where job.priority.rawValue == top {
            if position == 0 { return job }
            position -= 1
        }
        return queue[index % queue.count]
    }
}
