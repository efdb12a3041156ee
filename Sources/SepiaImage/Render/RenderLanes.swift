import Synchronization

/// Render contexts for rendering several images at once, each image on a lane with its share of the threads.
///
/// libpng, libwebp and libheif decode a whole frame on one thread, and every tile of that image waits for it.
/// Images sharing one context queue their tiles behind such a decode; one lane per image in flight keeps a
/// decode going on every core. An image that starts while no other is rendering gets every thread instead
/// (``whole``), so that files handled one at a time lose nothing. The batch commands, library imports and the
/// server's uploads take a lane for each file they work on.
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
    /// The context of an image that starts alone: every thread.
    public let whole: RenderContext
    /// One context per lane, each with its share of the threads.
    public let contexts: [RenderContext]

    private struct State {
        var free: [Int]
        var waiters: [CheckedContinuation<Int, Never>] = []
    }

    private let state: Mutex<State>

    /// `count` lanes dividing `options.threadCount` threads between them (at least one each).
    public convenience init(count: Int, options: RenderOptions = RenderOptions()) {
        self.init(count: count, sharing: RenderContext(options: options))
    }

    /// `count` lanes dividing the threads of `shared` between them; `shared` is ``whole``.
    public init(count: Int, sharing shared: RenderContext) {
        whole = shared
        if count > 1 {
            var share = shared.options
            share.threadCount = max(1, share.threadCount / count)
            contexts = (0..<count).map { _ in RenderContext(options: share) }
        } else {
            contexts = [shared]
        }
        state = Mutex(State(free: Array(contexts.indices.reversed())))
    }

    /// The number of lanes: how many images render at once.
    public var count: Int { contexts.count }

    /// Runs `body` with a context: ``whole`` when no other image is rendering, else a free lane's, waiting
    /// (without blocking a thread) until one is free. Lanes are handed out in the order they were asked for.
    public func withLane<T>(_ body: (RenderContext) async throws -> T) async rethrows -> T {
        let (lane, alone) = await acquire()
        defer { release(lane) }
        return try await body(alone ? whole : contexts[lane])
    }

    /// A free lane, and whether every other lane was free when it was taken.
    private func acquire() async -> (Int, Bool) {
        let count = contexts.count
        if let taken = state.withLock({ state in state.free.popLast().map { ($0, state.free.count == count - 1) } }) {
            return taken
        }
        let lane = await withCheckedContinuation { continuation in
            let lane = state.withLock { state -> Int? in
                if let lane = state.free.popLast() { return lane }
                state.waiters.append(continuation)
                return nil
            }
            if let lane { continuation.resume(returning: lane) }
        }
        return (lane, false)
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
