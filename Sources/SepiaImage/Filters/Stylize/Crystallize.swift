import Foundation

/// Creates polygon-shaped colour blocks: Core Image's `CICrystallize`.
///
/// Seeds lie on a jittered grid of spacing `radius` anchored at `center`: one seed per grid cell, placed by a
/// fixed hash of the cell (so the pattern is the same on every render). Each pixel belongs to its nearest seed
/// (a Voronoi cell) and takes the mean colour of all the pixels of that cell. `radius` 1 leaves each pixel in
/// its own cell (Core Image's identity value).
public struct Crystallize: Filter {
    /// Core Image name `CICrystallize`.
    public static let descriptor = FilterDescriptor(
        name: "Crystallize", coreImageName: "CICrystallize", displayName: "Crystallize",
        categories: [.stylize, .stillImage, .builtIn],
        summary: "Creates polygon-shaped color blocks by aggregating source pixel-color values.",
        parameters: [
            .scalar("radius", kind: .distance, summary: "Spacing of the seeds, in pixels.", default: 20, minimum: 1, slider: 1...100, identity: 1),
            FilterParameter(key: "center", kind: .position, summary: "A point the seed grid is anchored at.", defaultValue: .vector([150, 150])),
        ])

    /// Seed spacing, ≥ 1.
    public var radius: Float
    /// Grid anchor.
    public var center: SIMD2<Double>

    /// Creates the filter; `radius` is between 1 and 1000.
    public init(radius: Float = 20, center: SIMD2<Double> = [150, 150]) {
        self.radius = min(max(radius.isFinite ? radius : 20, 1), 1000)
        self.center = SIMD2(center.x.isFinite ? center.x : 150, center.y.isFinite ? center.y : 150)
    }

    /// Averages Voronoi cells.
    public func apply(to image: Image) -> Image {
        if image.extent.isEmpty || image.extent.isInfinite || radius <= 1 { return image }
        return image.applyingArea(Kernel(spacing: Double(radius), center: center, extent: image.extent))
    }

    struct Kernel: CellMeanKernel {
        let spacing: Double
        let center: SIMD2<Double>
        let extent: IntRect

        /// Every pixel is within √2·spacing of a seed, so cells reaching the tile lie within 3 spacings.
        var margin: Int { Int((3 * spacing).rounded(.up)) + 1 }

        /// Each pixel looks for its nearest seed among 25 hashed ones.
        var operationsPerCellLookup: Double { 25 }

        func regionOfInterest(for rect: IntRect) -> IntRect {
            rect.insetBy(dx: -margin, dy: -margin).intersection(extent)
        }

        /// A seed per grid cell, jittered by a fixed integer hash (SplitMix64).
        func seed(_ i: Int, _ j: Int) -> SIMD2<Double> {
            var z = UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(j)) &* 0xC2B2_AE3D_27D4_EB4F
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let u = Double(z & 0xFFFF_FFFF) / 4_294_967_296
            let v = Double(z >> 32) / 4_294_967_296
            return SIMD2(center.x + (Double(i) + u) * spacing, center.y + (Double(j) + v) * spacing)
        }

        /// The grid cell of the nearest seed to the centre of pixel (x, y).
        func owner(_ x: Int, _ y: Int) -> SIMD2<Int> {
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let gi = Int(((px - center.x) / spacing).rounded(.down))
            let gj = Int(((py - center.y) / spacing).rounded(.down))
            var best = SIMD2(gi, gj)
            var bestDistance = Double.infinity
            for j in (gj - 2)...(gj + 2) {
                for i in (gi - 2)...(gi + 2) {
                    let s = seed(i, j)
                    let d = (s.x - px) * (s.x - px) + (s.y - py) * (s.y - py)
                    if d < bestDistance {
                        bestDistance = d
                        best = SIMD2(i, j)
                    }
                }
            }
            return best
        }

        func cell(x: Int, y: Int) -> SIMD2<Int> { owner(x, y) }

        func render(input: TileView, into output: TileView) {
            let rect = output.rect
            // Which cells the tile shows.
            var owners = [SIMD2<Int>](repeating: .zero, count: rect.area)
            var sums: [SIMD2<Int>: (SIMD4<Float>, Int)] = [:]
            for y in rect.minY..<rect.maxY {
                for x in rect.minX..<rect.maxX {
                    let o = owner(x, y)
                    owners[(y - rect.minY) * rect.width + (x - rect.minX)] = o
                    if sums[o] == nil { sums[o] = (.zero, 0) }
                }
            }
            // Their mean colours, over every pixel of each cell (all inside the region of interest).
            let region = input.rect
            for y in region.minY..<region.maxY {
                let row = input.row(y)
                for x in region.minX..<region.maxX {
                    let o = owner(x, y)
                    if let entry = sums[o] {
                        sums[o] = (entry.0 + row[x - region.minX], entry.1 + 1)
                    }
                }
            }
            for y in rect.minY..<rect.maxY {
                let dst = output.row(y)
                for x in rect.minX..<rect.maxX {
                    let o = owners[(y - rect.minY) * rect.width + (x - rect.minX)]
                    let (sum, count) = sums[o] ?? (.zero, 0)
                    dst[x - rect.minX] = count > 0 ? sum / Float(count) : .zero
                }
            }
        }
    }
}
