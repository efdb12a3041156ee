/// A neighbourhood operation: computes an output rectangle from a larger input region.
/// Works on premultiplied pixels.
protocol AreaKernel: Sendable {
    /// The input region needed to produce `rect`.
    func regionOfInterest(for rect: IntRect) -> IntRect
    /// Fills `output` from `input`, which covers ``regionOfInterest(for:)`` of `output.rect`.
    func render(input: TileView, into output: TileView)
    /// Whether an opaque input gives an opaque output.
    var preservesOpacity: Bool { get }
    /// Whether the kernel reads its input far from the rows it writes (rotations).
    var readsOutOfOrder: Bool { get }
    /// Pixel operations per output pixel, for ``RenderCost``.
    var operationsPerPixel: Double { get }
}

extension AreaKernel {
    var preservesOpacity: Bool { true }
    var readsOutOfOrder: Bool { false }
    var operationsPerPixel: Double { 2 }
}
