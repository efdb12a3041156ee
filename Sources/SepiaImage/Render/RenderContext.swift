import Foundation
import Synchronization

/// Renders ``Image`` recipes into pixels: Sepia's `CIContext`.
///
/// A context owns a pool of worker threads; create one and share it (like Core Image's advice for
/// `CIContext`). Rendering is safe from any number of threads and tasks at once. The output is bit-identical
/// whatever the tile size and thread count.
///
/// ```swift
/// let context = RenderContext()
/// let bitmap = try await context.renderBitmap(image.thumbnail(size: IntSize(width: 256, height: 256)))
/// ```
public final class RenderContext: Sendable {
    /// How this context renders.
    public let options: RenderOptions
    private let pool: RenderThreadPool

    /// Creates a context; its worker threads start on the first render.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
        pool = RenderThreadPool(threadCount: options.threadCount)
    }

    deinit {
        pool.shutdown()
    }

    /// How many renders are queued or in progress on the workers.
    var queuedJobCount: Int { pool.queuedCount }

    // MARK: - Rendering

    /// Renders `region` (default: the image's extent) in the working space: linear light, premultiplied.
    public func render(_ image: Image, region: IntRect? = nil) async throws -> PixelBuffer {
        let rect = try resolve(image, region)
        let base = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: rect.area)
        defer { base.deallocate() }
        try await run(RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .pixels(base)))
        return PixelBuffer(extent: rect, pixels: Array(UnsafeBufferPointer(start: base, count: rect.area)))
    }

    /// Renders `region` (default: the extent) as 8-bit sRGB. The layout defaults to RGB for opaque images and
    /// RGBA otherwise; layouts without alpha composite over ``RenderOptions/background``.
    public func renderBitmap(_ image: Image, region: IntRect? = nil, layout: Bitmap.Layout? = nil) async throws -> Bitmap {
        let rect = try resolve(image, region)
        let layout = layout ?? (image.isOpaque && image.extent.contains(rect) ? .rgb : .rgba)
        let count = rect.area * layout.channels
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { base.deallocate() }
        try await run(
            RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .bitmap(base, layout)))
        return Bitmap(width: rect.width, height: rect.height, layout: layout, bytes: Array(UnsafeBufferPointer(start: base, count: count)))
    }

    /// Renders `region` (default: the extent) as 8-bit sRGB rows streamed to `sink` from top to bottom, so the
    /// whole output never has to be in memory.
    public func render(_ image: Image, region: IntRect? = nil, layout: Bitmap.Layout, into sink: any RowSink) async throws {
        let rect = try resolve(image, region)
        try sink.begin(width: rect.width, height: rect.height, layout: layout)
        try await run(
            RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .stream(layout, sink)))
        try sink.finish()
    }

    // MARK: - Blocking variants

    /// Like ``render(_:region:)``, blocking the calling thread. Do not call from a Swift concurrency task.
    public func renderSynchronously(_ image: Image, region: IntRect? = nil) throws -> PixelBuffer {
        let rect = try resolve(image, region)
        let base = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: rect.area)
        defer { base.deallocate() }
        try runSynchronously(RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .pixels(base)))
        return PixelBuffer(extent: rect, pixels: Array(UnsafeBufferPointer(start: base, count: rect.area)))
    }

    /// Like ``renderBitmap(_:region:layout:)``, blocking the calling thread. Do not call from a Swift
    /// concurrency task.
    public func renderBitmapSynchronously(_ image: Image, region: IntRect? = nil, layout: Bitmap.Layout? = nil) throws -> Bitmap {
        let rect = try resolve(image, region)
        let layout = layout ?? (image.isOpaque && image.extent.contains(rect) ? .rgb : .rgba)
        let count = rect.area * layout.channels
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { base.deallocate() }
        try runSynchronously(
            RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .bitmap(base, layout)))
        return Bitmap(width: rect.width, height: rect.height, layout: layout, bytes: Array(UnsafeBufferPointer(start: base, count: count)))
    }

    /// Like ``render(_:region:layout:into:)``, blocking the calling thread. Do not call from a Swift
    /// concurrency task.
    public func renderSynchronously(_ image: Image, region: IntRect? = nil, layout: Bitmap.Layout, into sink: any RowSink) throws {
        let rect = try resolve(image, region)
        try sink.begin(width: rect.width, height: rect.height, layout: layout)
        try runSynchronously(
            RenderJob(graph: RenderGraph(image: image), region: rect, options: options, output: .stream(layout, sink)))
        try sink.finish()
    }

    // MARK: - Internals

    private func resolve(_ image: Image, _ region: IntRect?) throws -> IntRect {
        let rect = region ?? image.extent
        if rect.isInfinite { throw RenderError.infiniteExtent }
        if rect.isEmpty { throw RenderError.emptyRegion(rect) }
        if rect.area > options.maximumOutputPixels {
            throw RenderError.tooManyPixels(width: rect.width, height: rect.height, limit: options.maximumOutputPixels)
        }
        return rect
    }

    private func run(_ job: RenderJob) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                job.onCompletion { result in continuation.resume(with: result) }
                pool.submit(job)
            }
        } onCancel: {
            job.cancel()
        }
    }

    private func runSynchronously(_ job: RenderJob) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        job.onCompletion { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        pool.submit(job)
        done.wait()
        try outcome.withLock { $0 }?.get()
    }
}
