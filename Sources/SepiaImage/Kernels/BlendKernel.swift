/// A per-pixel operation combining two images (an image and its blurred copy, for unsharp masking,
/// luminance sharpening and local tone adjustment). Works on premultiplied pixels.
protocol BlendKernel: Sendable {
    /// Combines `count` pixels of `a` with the matching pixels of `b`, writing into `a`.
    func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int)
    /// Whether an opaque `a` gives an opaque result.
    var preservesAlpha: Bool { get }
}
