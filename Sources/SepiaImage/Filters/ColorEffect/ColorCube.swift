/// Transforms colours through a 3-D lookup table: Core Image's `CIColorCube`.
///
/// `cubeData` holds `cubeDimension³` RGBA entries (premultiplied, 0–1) in Core Image's layout: red varies
/// fastest, then green, then blue — entry `(b·N + g)·N + r`. Each pixel's unpremultiplied linear RGB, clamped to
/// 0…1 (or extended beyond it when `extrapolate` is set), is looked up with trilinear interpolation. As in Core
/// Image, the table applies in the working space (linear light). The default is the 2×2×2 identity cube.
public struct ColorCube: PointFilter {
    /// Core Image name `CIColorCube`.
    public static let descriptor = FilterDescriptor(
        name: "ColorCube", coreImageName: "CIColorCube", displayName: "Color Cube",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Uses a three-dimensional color table to transform the source image pixels.",
        parameters: [
            .scalar("cubeDimension", kind: .count, summary: "Entries along each axis of the cube.", default: 2, minimum: 2, maximum: 128),
            FilterParameter(
                key: "cubeData", kind: .data, summary: "dimension³ premultiplied RGBA entries, red fastest.",
                defaultValue: .vector(ColorCube.identityData(dimension: 2).map(Double.init))),
            FilterParameter(
                key: "extrapolate", kind: .boolean, summary: "Extend the table linearly beyond 0…1.",
                defaultValue: .bool(false)),
        ])

    /// Entries per axis, 2…128.
    public var cubeDimension: Int
    /// The table, `cubeDimension³ × 4` floats.
    public var cubeData: [Float]
    /// Whether inputs outside 0…1 extrapolate the cube instead of being clamped.
    public var extrapolate: Bool

    /// The identity table of a dimension.
    public static func identityData(dimension n: Int) -> [Float] {
        var data = [Float]()
        data.reserveCapacity(n * n * n * 4)
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    data += [Float(r) / Float(n - 1), Float(g) / Float(n - 1), Float(b) / Float(n - 1), 1]
                }
            }
        }
        return data
    }

    /// Creates the filter. A table whose size does not match the dimension is replaced by the identity.
    public init(cubeDimension: Int = 2, cubeData: [Float]? = nil, extrapolate: Bool = false) {
        let n = min(max(cubeDimension, 2), 128)
        self.cubeDimension = n
        if let cubeData, cubeData.count == n * n * n * 4, cubeData.allSatisfy(\.isFinite) {
            self.cubeData = cubeData
        } else {
            self.cubeData = Self.identityData(dimension: n)
        }
        self.extrapolate = extrapolate
    }

    /// The table must hold dimension³ × 4 finite numbers.
    public func validate() throws(FilterError) {
        let n = cubeDimension
        guard (2...128).contains(n) else {
            throw .parameterOutOfRange(filter: "CIColorCube", key: "cubeDimension", value: Double(n), minimum: 2, maximum: 128)
        }
        guard cubeData.count == n * n * n * 4 else {
            throw .wrongType(
                filter: "CIColorCube", key: "cubeData", expected: "\(n * n * n * 4) numbers (dimension³ × 4)", value: "\(cubeData.count) numbers")
        }
        guard cubeData.allSatisfy(\.isFinite) else { throw .notFinite(filter: "CIColorCube", key: "cubeData") }
    }

    /// Whether every entry is opaque.
    public var preservesAlpha: Bool {
        stride(from: 3, to: cubeData.count, by: 4).allSatisfy { cubeData[$0] == 1 }
    }

    /// Looks one pixel up.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        let n = cubeDimension
        let scale = Float(n - 1)
        var index = SIMD3<Int>.zero
        var fraction = SIMD3<Float>.zero
        for c in 0..<3 {
            var v = pixel[c] * scale
            if !extrapolate || v.isNaN { v = min(max(v.isNaN ? 0 : v, 0), scale) }
            let i = min(max(Int(v.rounded(.down)), 0), n - 2)
            index[c] = i
            fraction[c] = v - Float(i)
        }
        func entry(_ r: Int, _ g: Int, _ b: Int) -> SIMD4<Float> {
            let o = ((b * n + g) * n + r) * 4
            return SIMD4(cubeData[o], cubeData[o + 1], cubeData[o + 2], cubeData[o + 3])
        }
        let (r, g, b) = (index.x, index.y, index.z)
        let (fr, fg, fb) = (fraction.x, fraction.y, fraction.z)
        let c00 = entry(r, g, b) + (entry(r + 1, g, b) - entry(r, g, b)) * fr
        let c10 = entry(r, g + 1, b) + (entry(r + 1, g + 1, b) - entry(r, g + 1, b)) * fr
        let c01 = entry(r, g, b + 1) + (entry(r + 1, g, b + 1) - entry(r, g, b + 1)) * fr
        let c11 = entry(r, g + 1, b + 1) + (entry(r + 1, g + 1, b + 1) - entry(r, g + 1, b + 1)) * fr
        let c0 = c00 + (c10 - c00) * fg
        let c1 = c01 + (c11 - c01) * fg
        let out = c0 + (c1 - c0) * fb
        // The table is premultiplied; the engine works on unpremultiplied colour here.
        let alpha = out[3]
        let colour = alpha > 0 ? SIMD3(out[0], out[1], out[2]) / alpha : SIMD3<Float>.zero
        return SIMD4(colour, alpha * pixel[3])
    }
}
