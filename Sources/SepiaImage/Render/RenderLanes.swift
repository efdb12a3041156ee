import Synchronization

/// Render contexts for rendering several images at once, each image on a lane with its share of the threads.
///
/// libpng, libwebp and libheif decode a whole frame on one thread, and every tile of that image waits for it.
/// Images sharing one context queue their tiles behind such a decode; one lane per image in flight keeps a
/// decode going on every core. The batch commands, library imports and the server's uploads take a
/// lane for each file they work on.
///
/// ```swift
/// let lanes = RenderLanes(count: 2)
/// try await withThrowingTaskGroup(of: Bitmap.self) { group in
///     for image in images {
///         group.addTask { try await lanes.withLane { try await $0.renderBitmap(image) } }
///     }
///     …
/// }
/// ```
public final class RenderLanes: Sendable {
    /// One context per lane.
    public let contexts: [RenderContext]

    private struct State {
        var free: [Int]
        var waiters: [CheckedContinuation<Int, Never>] = []
    }

    private let state: Mutex<State>

    /// `count` lanes dividing `options.threadCount` threads between them (at least one each).
    public convenience init(count: Int, options: RenderOptions = RenderOptions()) {
        let count = max(1, count)
        var share = options
        share.threadCount = max(1, options.threadCount / count)
        self.init(contexts: (0..<count).map { _ in RenderContext(options: count == 1 ? options : share) })
    }

    /// `count` lanes dividing the threads of `shared` between them; a single lane is `shared` itself.
    public convenience init(count: Int, sharing shared: RenderContext) {
        guard count > 1 else {
            self.init(contexts: [shared])
            return
        }
        var share = shared.options
        share.threadCount = max(1, share.threadCount / count)
        self.init(contexts: (0..<count).map { _ in RenderContext(options: share) })
    }

    private init(contexts: [RenderContext]) {
        self.contexts = contexts
        state = Mutex(State(free: Array(contexts.indices.reversed())))
    }

    /// The number of lanes: how many images render at once.
    public var count: Int { contexts.count }

    /// Runs `body` with a free lane's context, waiting (without blocking a thread) until one is free. Lanes
    /// are handed out in the order they were asked for.
    public func withLane<T>(_ body: (RenderContext) async throws -> T) async rethrows -> T {
        let lane = await acquire()
        defer { release(lane) }
        return try await body(contexts[lane])
    }

    private func acquire() async -> Int {
        if let lane = state.withLock({ $0.free.popLast() }) { return lane }
        return await withCheckedContinuation { continuation in
            let lane = state.withLock { state -> Int? in
                if let lane = state.free.popLast() { return lane }
                state.waiters.append(continuation)
                return nil
            }
            if let lane { continuation.resume(returning: lane) }
        }
    }

    private func release(_ lane: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Int, Never>? in
            if state.waiters.isEmpty {
                state.free.append(lane)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: lane)
    }
}
