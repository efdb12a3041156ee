/// The most a render may cost (``RenderCost``): a budget per output pixel, with a floor for small outputs.
///
/// A render of `n` output pixels may cost `max(minimumOperations, operationsPerOutputPixel × n)`: a large
/// edit may do more work than a thumbnail, and no edit may do much more work per pixel than the largest
/// legitimate one. The default lets the web app's edits pass on a 100-megapixel photo (every Adjust slider at
/// its end with a straightening and a crop, any look or Instafilter filter at its end with the geometry),
/// while a blur whose reach is many times the picture, or dozens of them one after the other, is refused
/// before it starts.
public struct RenderCostLimit: Sendable, Hashable {
    /// The budget per output pixel.
    public var operationsPerOutputPixel: Double
    /// The budget of any render, however small its output.
    public var minimumOperations: Double

    /// Creates a limit.
    public init(operationsPerOutputPixel: Double, minimumOperations: Double) {
        self.operationsPerOutputPixel = operationsPerOutputPixel
        self.minimumOperations = minimumOperations
    }

    /// 10 000 operations per output pixel, and at least 4 billion: about 8 billion (some 10 CPU-seconds) for a
    /// 1024 × 768 preview, 10¹² for a 100-megapixel save (see docs/security.md and BENCHMARKS.md).
    public static let `default` = RenderCostLimit(operationsPerOutputPixel: 10_000, minimumOperations: 4e9)

    /// No limit.
    public static let unlimited = RenderCostLimit(operationsPerOutputPixel: .infinity, minimumOperations: .infinity)

    /// The budget of a render of `outputPixels` pixels.
    public func budget(forOutputPixels outputPixels: Double) -> Double {
        max(minimumOperations, operationsPerOutputPixel * outputPixels)
    }

    /// Whether a render of this cost may run.
    public func allows(_ cost: RenderCost) -> Bool {
        cost.operations <= budget(forOutputPixels: cost.outputPixels)
    }
}
