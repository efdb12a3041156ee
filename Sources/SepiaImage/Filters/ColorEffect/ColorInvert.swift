/// Inverts colours, like a photographic negative: Core Image's `CIColorInvert`.
///
/// `1 − v` on each sRGB-encoded colour channel of the unpremultiplied pixel, so 8-bit values map to
/// `255 − v` exactly; alpha unchanged. (Inverting linear light would turn mid-grey into a pale grey.)
public struct ColorInvert: PointFilter {
    /// Core Image name `CIColorInvert`; no parameters.
    public static let descriptor = FilterDescriptor(
        name: "ColorInvert", coreImageName: "CIColorInvert", displayName: "Color Invert",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Inverts the colors in an image.", parameters: [])

    /// Creates the filter.
    public init() {}

    /// Inverts one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        let e = TransferCurve.encode(pixel)
        return TransferCurve.decode(SIMD4(1 - e[0], 1 - e[1], 1 - e[2], pixel[3]))
    }
}
