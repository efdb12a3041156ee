import Foundation

/// How a ``RenderContext`` renders.
public struct RenderOptions: Sendable, Hashable {
    /// Worker threads; defaults to every core.
    public var threadCount: Int
    /// Height in pixels of the tiles (strips) the output is split into; `nil` lets the renderer choose (64 rows,
    /// more for operations with a large vertical reach, such as blurs).
    public var tileHeight: Int?
    /// Width of the tiles; `nil` renders full-width strips. Rows streamed to a ``RowSink`` always use strips.
    public var tileWidth: Int?
    /// The colour, in linear light, that transparent pixels are composited over when the output layout has
    /// no alpha (JPEG). White by default.
    public var background: SIMD3<Float>
    /// The largest output, in pixels, a render may produce.
    public var maximumOutputPixels: Int

    /// Creates options; by default every core renders strips of a height the renderer chooses.
    public init(
        threadCount: Int? = nil, tileHeight: Int? = nil, tileWidth: Int? = nil,
        background: SIMD3<Float> = [1, 1, 1], maximumOutputPixels: Int = 400_000_000
    ) {
        self.threadCount = max(1, threadCount ?? ProcessInfo.processInfo.activeProcessorCount)
        self.tileHeight = tileHeight.map { max(1, $0) }
        self.tileWidth = tileWidth.map { max(1, $0) }
        self.background = background
        self.maximumOutputPixels = maximumOutputPixels
    }
}

/// Receives rendered rows from top to bottom, as 8-bit sRGB samples: how encoders stream an image without
/// holding all of it.
///
/// The renderer calls the methods from its worker threads, one call at a time and in order. Conforming types
/// may therefore hold non-thread-safe state (a C encoder) and declare `@unchecked Sendable`.
public protocol RowSink: AnyObject, Sendable {
    /// Called once, before any rows.
    func begin(width: Int, height: Int, layout: Bitmap.Layout) throws
    /// Receives the next `rowCount` rows, tightly packed.
    func write(rows: [UInt8], rowCount: Int) throws
    /// Called once after the last row.
    func finish() throws
}
