/// Rendered pixels in Sepia's working space: linear-light sRGB primaries, `Float` samples, premultiplied
/// alpha, one `SIMD4<Float>` (r, g, b, a) per pixel.
///
/// Values may leave 0...1 (wide-gamut inputs, exposure, ringing of resampling filters); they are clipped only
/// when encoded to 8 bits.
public struct PixelBuffer: Sendable, Equatable {
    /// The pixels' position and size.
    public let extent: IntRect
    /// The pixels, row by row.
    public var pixels: [SIMD4<Float>]

    /// Creates a buffer from pixels; `pixels.count` must equal `extent.area`.
    public init(extent: IntRect, pixels: [SIMD4<Float>]) {
        precondition(!extent.isInfinite, "a pixel buffer needs a finite extent")
        precondition(pixels.count == extent.area, "pixel count does not match the extent")
        self.extent = extent
        self.pixels = pixels
    }

    /// Creates a transparent buffer.
    public init(extent: IntRect) {
        self.init(extent: extent, pixels: [SIMD4<Float>](repeating: .zero, count: extent.area))
    }

    /// Creates a buffer of `size` whose pixels come from `pixel(x, y)`.
    public init(size: IntSize, _ pixel: (Int, Int) -> SIMD4<Float>) {
        var pixels = [SIMD4<Float>]()
        pixels.reserveCapacity(size.area)
        for y in 0..<size.height {
            for x in 0..<size.width {
                pixels.append(pixel(x, y))
            }
        }
        self.init(extent: IntRect(size: size), pixels: pixels)
    }

    /// The pixel at absolute coordinates (`x`, `y`), which must lie inside ``extent``.
    public subscript(x: Int, y: Int) -> SIMD4<Float> {
        get { pixels[(y - extent.minY) * extent.width + (x - extent.minX)] }
        set { pixels[(y - extent.minY) * extent.width + (x - extent.minX)] = newValue }
    }
}
