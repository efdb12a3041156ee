import Foundation
import Synchronization
import Testing

@testable import SepiaImage

@Suite struct RenderPriorityTests {
    @Test("renders are interactive unless the task says otherwise, and child tasks inherit what it said")
    func taskLocalPriority() async {
        #expect(RenderPriority.current == .interactive)
        await RenderPriority.$current.withValue(.background) {
            let inherited = await Task { RenderPriority.current }.value
            #expect(inherited == .background)
        }
    }

    /// Receives a background render's rows; holds the worker at its first rows until `release` is signalled, so
    /// that the test knows the render is under way when it asks for another.
    final class HeldSink: RowSink, @unchecked Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let rows = Atomic(0)
        private var first = true

        func begin(width: Int, height: Int, layout: Bitmap.Layout) throws {}
        func write(rows: [UInt8], rowCount: Int) throws {
            self.rows.add(rowCount, ordering: .sequentiallyConsistent)
            if first {
                first = false
                started.signal()
                release.wait()
            }
        }
        func finish() throws {}
    }

    /// Receives the interactive render's rows and notes, as each arrives, how many rows the held background
    /// render had written by then: read on the worker itself as it writes, so that a slow resumption of the
    /// waiting task afterwards cannot make the background render look as if it had gone first.
    final class SnapshotSink: RowSink, @unchecked Sendable {
        let other: HeldSink
        let rowsOfOtherAtLastRows = Atomic(-1)
        init(other: HeldSink) { self.other = other }

        func begin(width: Int, height: Int, layout: Bitmap.Layout) throws {}
        func write(rows: [UInt8], rowCount: Int) throws {
            rowsOfOtherAtLastRows.store(other.rows.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
        }
        func finish() throws {}
    }

    /// Waits on a thread of its own, never on one of the concurrency pool's.
    static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            Thread {
                semaphore.wait()
                continuation.resume()
            }.start()
        }
    }

    @Test("an interactive render is served before a background one's remaining tiles")
    func higherPriorityFirst() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 1, tileHeight: 4))
        let large = Image(bitmap: TestImages.bitmapNoise(300, 1500)).resized(to: IntSize(width: 250, height: 1250))
        let small = Image(bitmap: TestImages.bitmapNoise(64, 64))
        let sink = HeldSink()
        let background = Task {
            try await RenderPriority.$current.withValue(.background) {
                try await context.render(large, layout: .rgb, into: sink)
            }
        }
        await Self.wait(for: sink.started)
        let snapshot = SnapshotSink(other: sink)
        let interactive = Task { try await context.render(small, layout: .rgb, into: snapshot) }
        // The interactive job is queued beside the held one before the worker goes on.
        while context.queuedJobCount < 2 { try await Task.sleep(for: .milliseconds(1)) }
        sink.release.signal()
        try await interactive.value
        try await background.value
        let rowsMeanwhile = snapshot.rowsOfOtherAtLastRows.load(ordering: .sequentiallyConsistent)
        #expect(rowsMeanwhile >= 0, "the interactive render never finished its rows")
        #expect(rowsMeanwhile < 1250, "the background render finished before the interactive one")
        #expect(sink.rows.load(ordering: .sequentiallyConsistent) == 1250)
    }

    @Test("background and interactive renders at once all complete, identical to a render alone")
    func samePriorityAndResumedRenders() async throws {
        let image = Image(bitmap: TestImages.bitmapNoise(120, 300)).resized(to: IntSize(width: 90, height: 250))
        let reference = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(image)
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 3))
        try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for index in 0..<12 {
                let priority: RenderPriority = index.isMultiple(of: 3) ? .background : .interactive
                group.addTask {
                    try await RenderPriority.$current.withValue(priority) { try await context.renderBitmap(image) }
                }
            }
            for try await result in group { #expect(result == reference) }
        }
        #expect(context.queuedJobCount == 0)
    }
}
