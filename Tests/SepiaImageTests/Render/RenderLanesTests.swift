import Synchronization
import Testing

@testable import SepiaImage

@Suite struct RenderLanesTests {
    @Test("lanes divide the threads; one lane keeps them all")
    func threadShares() {
        let four = RenderLanes(count: 2, options: RenderOptions(threadCount: 4))
        #expect(four.contexts.map(\.options.threadCount) == [2, 2])
        let more = RenderLanes(count: 3, options: RenderOptions(threadCount: 2))
        #expect(more.contexts.map(\.options.threadCount) == [1, 1, 1])
        let shared = RenderContext(options: RenderOptions(threadCount: 2))
        #expect(RenderLanes(count: 1, sharing: shared).contexts.first === shared)
        #expect(RenderLanes(count: 2, sharing: shared).contexts.map(\.options.threadCount) == [1, 1])
    }

    @Test("an image that starts alone gets every thread; one that starts beside it gets a lane")
    func aloneGetsWhole() async {
        let lanes = RenderLanes(count: 2, options: RenderOptions(threadCount: 2))
        #expect(lanes.whole.options.threadCount == 2)
        await lanes.withLane { first in
            #expect(first === lanes.whole)
            await lanes.withLane { second in
                #expect(second !== lanes.whole && second.options.threadCount == 1)
            }
        }
        await lanes.withLane { again in #expect(again === lanes.whole) }
    }

    /// Which lanes are rendering, and the most that ever were at once.
    final class Tracker: Sendable {
        private let state = Mutex<(busy: Set<ObjectIdentifier>, most: Int)>(([], 0))

        /// Marks `lane` busy; false when it already was.
        func enter(_ lane: ObjectIdentifier) -> Bool {
            state.withLock { state in
                let fresh = state.busy.insert(lane).inserted
                state.most = max(state.most, state.busy.count)
                return fresh
            }
        }

        func leave(_ lane: ObjectIdentifier) {
            _ = state.withLock { $0.busy.remove(lane) }
        }

        var most: Int { state.withLock { $0.most } }
    }

    @Test("no two images render on one lane at once, and every image gets a lane")
    func exclusiveLanes() async throws {
        let lanes = RenderLanes(count: 2, options: RenderOptions(threadCount: 2))
        let tracker = Tracker()
        let image = Image(bitmap: TestImages.bitmapNoise(64, 48)).resized(to: IntSize(width: 20, height: 15))
        let reference = try await RenderContext().renderBitmap(image)
        try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await lanes.withLane { context in
                        let lane = ObjectIdentifier(context)
                        #expect(tracker.enter(lane), "a lane was handed out twice")
                        defer { tracker.leave(lane) }
                        try await Task.sleep(for: .milliseconds(5))
                        return try await context.renderBitmap(image)
                    }
                }
            }
            var rendered = 0
            for try await bitmap in group {
                #expect(bitmap == reference)
                rendered += 1
            }
            #expect(rendered == 12)
        }
        #expect(tracker.most == 2)
    }
}
