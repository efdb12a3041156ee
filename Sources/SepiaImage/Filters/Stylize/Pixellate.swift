import Foundation

/// Makes an image blocky: Core Image's `CIPixellate`.
///
/// Square cells of side `scale` on a grid anchored at `center` (Core Image's default (150, 150)); each cell
/// takes the mean colour of the pixels whose centres fall in it (Core Image does not say whether it averages
/// or point-samples; the mean is the better-looking, alias-free choice). Cells are clipped to the image.
public struct Pixellate: Filter {
    /// Core Image name `CIPixellate`.
    public static let descriptor = FilterDescriptor(
        name: "Pixellate", coreImageName: "CIPixellate", displayName: "Pixelate",
        categories: [.stylize, .stillImage, .builtIn],
        summary: "Makes an image blocky by mapping the image to colored squares whose color is defined by the replaced pixels.",
        parameters: [
            FilterParameter(key: "center", kind: .position, summary: "A point the cell grid passes through.", defaultValue: .vector([150, 150])),
            .scalar("scale", kind: .distance, summary: "Cell size in pixels.", default: 8, minimum: 1, slider: 1...100),
        ])

    /// A grid point.
    public var center: SIMD2<Double>
    /// Cell side, ≥ 1.
    public var scale: Float

    /// Creates the filter; `scale` is between 1 and 10 000.
    public init(center: SIMD2<Double> = [150, 150], scale: Float = 8) {
        self.center = SIMD2(center.x.isFinite ? center.x : 150, center.y.isFinite ? center.y : 150)
        self.scale = min(max(scale.isFinite ? scale : 8, 1), 10_000)
    }

    /// Averages cells.
    public func apply(to image: Image) -> Image {
        if image.extent.isEmpty || image.extent.isInfinite { return image }
        return image.applyingArea(Kernel(center: center, scale: Double(scale), extent: image.extent))
    }

    struct Kernel: CellMeanKernel {
        let center: SIMD2<Double>
        let scale: Double
        let extent: IntRect

        var operationsPerCellLookup: Double { 1 }

        /// The cell holding pixel `i` along an axis whose grid passes through `origin`.
        func cell(_ i: Int, origin: Double) -> Int {
            Int(((Double(i) + 0.5 - origin) / scale).rounded(.down))
        }

        /// First pixel of cell `c`.
        func start(_ c: Int, origin: Double) -> Int {
            Int((origin + Double(c) * scale - 0.5).rounded(.up))
        }

        /// The cell along one axis whose pixels, from ``start(_:origin:)`` to the next cell's start,
        /// hold pixel `i`: the cells ``render(input:into:)`` sums and fills, even where rounding puts
        /// ``cell(_:origin:)`` on the other side of a boundary.
        func containingCell(_ i: Int, origin: Double) -> Int {
            var c = cell(i, origin: origin)
            while i < start(c, origin: origin) { c -= 1 }
            while i >= start(c + 1, origin: origin) { c += 1 }
            return c
        }

        func cell(x: Int, y: Int) -> SIMD2<Int> {
            SIMD2(containingCell(x, origin: center.x), containingCell(y, origin: center.y))
        }

        func regionOfInterest(for rect: IntRect) -> IntRect {
            let x0 = start(cell(rect.minX, origin: center.x), origin: center.x)
            let x1 = start(cell(rect.maxX - 1, origin: center.x) + 1, origin: center.x)
            let y0 = start(cell(rect.minY, origin: center.y), origin: center.y)
            let y1 = start(cell(rect.maxY - 1, origin: center.y) + 1, origin: center.y)
            return IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1).intersection(extent)
        }

        func render(input: TileView, into output: TileView) {
            let rect = output.rect
            var cy = cell(rect.minY, origin: center.y)
            while true {
                let y0 = start(cy, origin: center.y), y1 = start(cy + 1, origin: center.y)
                if y0 >= rect.maxY { break }
                var cx = cell(rect.minX, origin: center.x)
                while true {
                    let x0 = start(cx, origin: center.x), x1 = start(cx + 1, origin: center.x)
                    if x0 >= rect.maxX { break }
                    let area = IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1).intersection(extent)
                    var mean = SIMD4<Float>.zero
                    if !area.isEmpty {
                        var sum = SIMD4<Float>.zero
                        for y in area.minY..<area.maxY {
                            let row = input.pointer(x: area.minX, y: y)
                            for i in 0..<area.width { sum += row[i] }
                        }
                        mean = sum / Float(area.area)
                    }
                    let fill = IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1).intersection(rect)
                    if !fill.isEmpty {
                        for y in fill.minY..<fill.maxY {
                            output.pointer(x: fill.minX, y: y).update(repeating: mean, count: fill.width)
                        }
                    }
                    cx += 1
                }
                cy += 1
            }
        }
    }
}
