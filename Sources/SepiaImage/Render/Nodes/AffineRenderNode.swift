import Foundation

/// Resamples its input through an affine transform. Each output pixel centre is mapped back into the input
/// and sampled with a Catmull-Rom bicubic filter, widened by the reduction factor when the transform shrinks
/// (so rotations of large images do not alias). Outside the input's extent samples are transparent.
///
/// A rotation asked for a thin band (a blur after it asks a few rows at a time) would read the band's bounding
/// box in the input, many times the band, again for the next band: such requests are served from blocks of
/// the output rendered once for the whole render (``RenderedBlocks``), whose bounding boxes are close to
/// their size.
final class AffineRenderNode: RenderNode, @unchecked Sendable {
    let transform: AffineMatrix
    private let inverse: AffineMatrix
    /// Filter scale along each output axis (≥ 1 when shrinking).
    private let spread: Double
    private let inputExtent: IntRect
    /// The output kept in blocks, for the requests whose input region is many times their size.
    private let blocks: RenderedBlocks

    /// A block: a square-ish rectangle, whose bounding box after a rotation is about twice its area.
    private static let blockSize = IntSize(width: 128, height: 64)
    /// A request whose input region is more than this many times its area is served from blocks.
    private static let blockThreshold = 3.0

    init(input: RenderNode, transform: AffineMatrix, extent: IntRect) {
        self.transform = transform
        inverse = transform.inverted ?? .identity
        // The largest input distance one output pixel covers.
        let sx = (inverse.a * inverse.a + inverse.b * inverse.b).squareRoot()
        let sy = (inverse.c * inverse.c + inverse.d * inverse.d).squareRoot()
        spread = max(1, max(sx, sy))
        inputExtent = input.extent
        let extent = transform.inverted == nil ? IntRect.zero : extent
        blocks = RenderedBlocks(blockSize: Self.blockSize, bounds: extent)
        super.init(extent: extent, inputs: [input])
    }

    override var scratchSlots: Int { 1 }

    override var renderedBlocks: RenderedBlocks? { blocks }

    override var readsInputsOutOfOrder: Bool { !transform.isAxisAligned || transform.d < 0 }

    private var support: Double { 2 * spread }

    override func inputRegions(for rect: IntRect) -> [IntRect] {
        let box = inverse.boundingBox(of: rect)
        let margin = Int(support.rounded(.up)) + 1
        return [box.insetBy(dx: -margin, dy: -margin).intersection(inputExtent)]
    }

    /// The taps of the sampling window, which widens with the reduction: a transform that shrinks a lot reads
    /// many input pixels for each output pixel.
    override var operationsPerPixel: Double {
        let taps = 2 * support + 1
        return 2 + 0.25 * taps * taps
    }

    /// Served from blocks: the blocks that cover the region, each rendered once (or as often as requests come
    /// back to its rows, when those rows' blocks do not fit in the budget), and each request copied out of them.
    override func estimatedOperations(for demand: CostDemand) -> Double {
        guard usesBlocks(demand.typicalPiece) else { return super.estimatedOperations(for: demand) }
        let rendered = blocks.blockRects(covering: demand.region).reduce(0) { $0 + CostDemand.area($1) }
        return rendered * renderingsPerBlock(for: demand) * operationsPerPixel + 0.25 * demand.pixels
    }

    /// Served from blocks: each block's input region, as often as the block is rendered.
    override func inputDemands(for demand: CostDemand) -> [CostDemand] {
        guard usesBlocks(demand.typicalPiece) else { return super.inputDemands(for: demand) }
        let covering = blocks.blockRects(covering: demand.region)
        let pixels = covering.reduce(0) { $0 + CostDemand.area(inputRegions(for: $1)[0]) } * renderingsPerBlock(for: demand)
        let piece = demand.typicalPiece
        let typical = inputRegions(for: IntRect(x: piece.minX, y: piece.minY, width: Self.blockSize.width, height: Self.blockSize.height))[0]
        return [CostDemand(region: inputRegions(for: demand.region)[0], pixels: pixels, piece: typical.size)]
    }

    @inline(__always)
    private static func catmullRom(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return 1.5 * t * t * t - 2.5 * t * t + 1 }
        if t < 2 { return -0.5 * t * t * t + 2.5 * t * t - 4 * t + 2 }
        return 0
    }

    /// How many times each block is rendered for `demand`: once when each pixel is asked for once and the blocks
    /// of a band as wide as the region and as tall as a request fit in the budget, or when the requests come
    /// back to rows (how far back the demand does not say) and every block of the region fits; otherwise as
    /// often as the requests come back to a row, as though nothing were kept.
    private func renderingsPerBlock(for demand: CostDemand) -> Double {
        let repeats = max(1, demand.pixels / CostDemand.area(demand.region))
        let across = (demand.region.width + Self.blockSize.width - 1) / Self.blockSize.width + 1
        let down = (demand.piece.height + Self.blockSize.height - 1) / Self.blockSize.height + 1
        if across * down > blocks.capacity { return repeats }
        if demand.isSinglePass { return 1 }
        return blocks.blockRects(covering: demand.region).count <= blocks.capacity ? 1 : repeats
    }

    /// Whether a request for `rect` is served from blocks: its input region is many times its size.
    private func usesBlocks(_ rect: IntRect) -> Bool {
        let region = inputRegions(for: rect)[0]
        return !transform.isAxisAligned && CostDemand.area(region) > Self.blockThreshold * CostDemand.area(rect)
    }

    override func render(into view: TileView, scratch: WorkerScratch) throws {
        if usesBlocks(view.rect) {
            try blocks.fill(view) { block in try resample(into: block, scratch: scratch) }
            return
        }
        try resample(into: view, scratch: scratch)
    }

    /// Resamples `view`'s pixels from the input region it needs.
    private func resample(into view: TileView, scratch: WorkerScratch) throws {
        try scratch.checkStopped()
        let region = inputRegions(for: view.rect)[0]
        if region.isEmpty {
            view.fill(.zero)
            return
        }
        let input = scratchView(0, region, scratch)
        try inputs[0].produce(into: input, scratch: scratch)
        let support = self.support
        let scale = 1 / spread
        var wx = [Double](repeating: 0, count: Int(2 * support) + 3)
        var wy = wx
        for y in view.rect.minY..<view.rect.maxY {
            let dst = view.row(y)
            for x in view.rect.minX..<view.rect.maxX {
                let p = inverse.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let cx = p.x - 0.5, cy = p.y - 0.5
                let x0 = max(Int((cx - support).rounded(.up)), region.minX)
                let x1 = min(Int((cx + support).rounded(.down)), region.maxX - 1)
                let y0 = max(Int((cy - support).rounded(.up)), region.minY)
                let y1 = min(Int((cy + support).rounded(.down)), region.maxY - 1)
                if x1 < x0 || y1 < y0 {
                    dst[x - view.rect.minX] = .zero
                    continue
                }
                // Weights over the full support (also outside the input, where pixels are transparent), so the
                // edge fades instead of being stretched.
                let fx0 = Int((cx - support).rounded(.up)), fy0 = Int((cy - support).rounded(.up))
                let fx1 = Int((cx + support).rounded(.down)), fy1 = Int((cy + support).rounded(.down))
                var totalX = 0.0, totalY = 0.0
                for i in fx0...fx1 {
                    let w = Self.catmullRom((Double(i) - cx) * scale)
                    totalX += w
                    if i >= x0 && i <= x1 { wx[i - x0] = w }
                }
                for j in fy0...fy1 {
                    let w = Self.catmullRom((Double(j) - cy) * scale)
                    totalY += w
                    if j >= y0 && j <= y1 { wy[j - y0] = w }
                }
                var acc = SIMD4<Float>.zero
                for j in y0...y1 {
                    let row = input.pointer(x: x0, y: j)
                    var line = SIMD4<Float>.zero
                    for i in 0...(x1 - x0) { line += row[i] * Float(wx[i]) }
                    acc += line * Float(wy[j - y0])
                }
                dst[x - view.rect.minX] = acc / Float(totalX * totalY)
            }
        }
    }
}
