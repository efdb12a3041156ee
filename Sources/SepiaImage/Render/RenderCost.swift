/// An estimate of the work one render does, made from its compiled render graph before any pixel is
/// computed: what a server checks a recipe against before it spends the CPU (``RenderCostLimit``).
///
/// The unit is the *pixel operation*: one simple pass over one working-space pixel, as an exposure change
/// costs. Each node of the graph adds the pixels it is asked for, as often as it is asked for them, times its
/// work per pixel:
///
/// - a node is asked for what its consumers' regions of interest cover, piece by piece as they ask: the
///   renderer works in strips (and in 512-column pieces), and a node that reads a margin around each piece —
///   a blur's reach — has its input computed again for every piece's margin, unless it keeps that work (a
///   crystallize's or a pixellate's cells summed in one pass, a rotation's blocks), when it counts it once;
/// - a Gaussian or box blur costs, per pixel of the region it reads, each pass's running sum plus the sum
///   restarted every 64 pixels over the box's width, so its work grows with the radius twice: through the
///   region its reach pulls in and through the work per pixel;
/// - a blur asked for its rows again and again (a blur of a blur) recomputes its vertical reach each time;
/// - resamples cost their filter's taps, affine transforms their sampling window (wide when they shrink a
///   lot), a decoder its format's decoding cost once per pixel decoded.
///
/// The estimate is meant to be within a small factor of the real work and to grow with it, never to be a
/// timing: on the machine BENCHMARKS.md describes, one billion operations take about a CPU-second.
///
/// ```swift
/// let cost = image.estimatedCost()
/// if !RenderCostLimit.default.allows(cost) { … }
/// ```
public struct RenderCost: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Pixel operations.
    public var operations: Double
    /// The pixels the render produces.
    public var outputPixels: Double

    /// Creates a cost.
    public init(operations: Double, outputPixels: Double) {
        self.operations = operations
        self.outputPixels = outputPixels
    }

    /// Operations per output pixel.
    public var operationsPerOutputPixel: Double { outputPixels > 0 ? operations / outputPixels : operations }

    /// Orders by operations.
    public static func < (lhs: RenderCost, rhs: RenderCost) -> Bool { lhs.operations < rhs.operations }

    /// The operations in words: "3.2 billion pixel operations".
    public var description: String { Self.describe(operations) + " pixel operations" }

    /// A count of operations in words a person reads at a glance: "850 million", "3.2 billion".
    static func describe(_ operations: Double) -> String {
        func short(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return value >= 100 || tenths % 10 == 0 ? String(Int(value.rounded())) : "\(tenths / 10).\(tenths % 10)"
        }
        guard operations.isFinite, operations < 1e15 else { return "more than a thousand trillion" }
        switch operations {
        case ..<1e6: return String(Int(operations.rounded()))
        case ..<1e9: return short(operations / 1e6) + " million"
        case ..<1e12: return short(operations / 1e9) + " billion"
        default: return short(operations / 1e12) + " trillion"
        }
    }
}

extension Image {
    /// The estimated cost of rendering `region` (default: the extent) of this image with a ``RenderContext``.
    /// Cheap next to a render (it compiles the recipe and looks at each node once); an infinite region costs
    /// infinitely much.
    public func estimatedCost(region: IntRect? = nil) -> RenderCost {
        let rect = region ?? extent
        if rect.isInfinite { return RenderCost(operations: .infinity, outputPixels: .infinity) }
        if rect.isEmpty { return RenderCost(operations: 0, outputPixels: 0) }
        let graph = RenderGraph(image: self)
        return RenderCost(operations: graph.estimatedOperations(for: rect), outputPixels: CostDemand.area(rect))
    }
}

/// What one node is asked for during a render: the region its consumers' requests cover, how many pixels
/// those requests add up to (more than the region's area when pieces overlap or repeat), and the size of
/// each request.
struct CostDemand {
    /// The union of the requested rectangles.
    var region: IntRect
    /// The requested pixels, all requests together.
    var pixels: Double
    /// A typical request's size.
    var piece: IntSize

    /// An area as a floating-point number (rectangles of blurred extents overflow integer areas when multiplied).
    static func area(_ rect: IntRect) -> Double {
        rect.isEmpty ? 0 : Double(rect.width) * Double(rect.height)
    }

    /// How many requests the demand is made of.
    var requests: Double { max(1, pixels / max(1, Self.area(IntRect(size: piece)))) }

    /// Whether the node is asked for pixels once each, in order (so that streams carry over from strip to strip).
    var isSinglePass: Bool { pixels <= Self.area(region) * 1.001 }

    /// A request of the typical size inside the region, near its middle.
    var typicalPiece: IntRect {
        let w = min(piece.width, region.width)
        let h = min(piece.height, region.height)
        return IntRect(x: region.minX + (region.width - w) / 2, y: region.minY + (region.height - h) / 2, width: w, height: h)
    }

    /// Adds another consumer's demand: the node computes both (nothing is kept between consumers).
    mutating func add(_ other: CostDemand) {
        region = region.isEmpty ? other.region : region.union(other.region)
        pixels += other.pixels
        piece = IntSize(width: min(piece.width, other.piece.width), height: min(piece.height, other.piece.height))
    }
}

extension RenderGraph {
    /// The pixel operations of rendering `rect` (finite, not empty), node by node from the root down.
    func estimatedOperations(for rect: IntRect) -> Double {
        let tileHeight = nodes.compactMap(\.preferredTileHeight).max() ?? 64
        var demands: [ObjectIdentifier: CostDemand] = [
            ObjectIdentifier(root): CostDemand(
                region: rect, pixels: CostDemand.area(rect), piece: IntSize(width: min(512, rect.width), height: min(tileHeight, rect.height)))
        ]
        var total = 0.0
        for node in nodes.reversed() {
            guard var demand = demands[ObjectIdentifier(node)] else { continue }
            let inside = demand.region.intersection(node.extent)
            if inside.isEmpty { continue }
            demand.pixels *= CostDemand.area(inside) / CostDemand.area(demand.region)
            demand.region = inside
            total += node.estimatedOperations(for: demand)
            if !total.isFinite { return .infinity }
            for (input, wanted) in zip(node.inputs, node.inputDemands(for: demand)) where wanted.pixels > 0 && !wanted.region.isEmpty {
                demands[ObjectIdentifier(input), default: CostDemand(region: .zero, pixels: 0, piece: wanted.piece)].add(wanted)
            }
        }
        return total
    }
}
