import Foundation
import SepiaImage

/// Colour descriptions given by code points rather than an ICC profile (HEIF/AVIF `nclx` boxes):
/// chromaticities of the primaries and white point, and a transfer characteristic (ITU-T H.273).
enum PrimariesConversion {
    /// The matrix from linear RGB with the given primaries and white point to linear sRGB (D65), with Bradford
    /// adaptation when the white points differ.
    static func matrixToSRGB(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>) -> Matrix3? {
        guard let toXYZ = rgbToXYZ(red: red, green: green, blue: blue, white: white),
            let srgbToXYZ = rgbToXYZ(red: [0.64, 0.33], green: [0.30, 0.60], blue: [0.15, 0.06], white: [0.3127, 0.3290]),
            let xyzToSRGB = inverse(srgbToXYZ)
        else { return nil }
        var m = multiply(xyzToSRGB, toXYZ)
        let d65 = SIMD2<Double>(0.3127, 0.3290)
        if abs(white.x - d65.x) > 1e-3 || abs(white.y - d65.y) > 1e-3 {
            guard let adapt = bradford(from: white, to: d65) else { return nil }
            m = multiply(xyzToSRGB, multiply(adapt, toXYZ))
        }
        return Matrix3(
            SIMD3(Float(m[0][0]), Float(m[0][1]), Float(m[0][2])),
            SIMD3(Float(m[1][0]), Float(m[1][1]), Float(m[1][2])),
            SIMD3(Float(m[2][0]), Float(m[2][1]), Float(m[2][2])))
    }

    /// The 8-bit decoding curve of an H.273 transfer characteristic; nil for HDR curves (PQ, HLG) and unknown
    /// values.
    static func curve(transferCharacteristic tc: Int) -> [Float]? {
        let f: (Double) -> Double
        switch tc {
        case 13, 2, 0:  // sRGB, unspecified
            return SRGB.decodeTable8
        case 1, 6, 14, 15:  // BT.709 / BT.601 / BT.2020 camera curve
            f = { v in v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45) }
        case 4:
            f = { v in pow(v, 2.2) }
        case 5:
            f = { v in pow(v, 2.8) }
        case 8:
            f = { v in v }
        default:
            return nil
        }
        return (0..<256).map { Float(f(Double($0) / 255)) }
    }

    // MARK: - 3×3 arithmetic in Double

    private static func rgbToXYZ(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>) -> [[Double]]? {
        func xyz(_ c: SIMD2<Double>) -> [Double] { [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
        guard red.y > 0, green.y > 0, blue.y > 0, white.y > 0 else { return nil }
        let r = xyz(red), g = xyz(green), b = xyz(blue), w = xyz(white)
        let p = [[r[0], g[0], b[0]], [r[1], g[1], b[1]], [r[2], g[2], b[2]]]
        guard let pi = inverse(p) else { return nil }
        let s = apply(pi, w)
        return p.map { (row: [Double]) -> [Double] in [row[0] * s[0], row[1] * s[1], row[2] * s[2]] }
    }

    private static func bradford(from source: SIMD2<Double>, to target: SIMD2<Double>) -> [[Double]]? {
        let b = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        guard let bi = inverse(b) else { return nil }
        func xyz(_ c: SIMD2<Double>) -> [Double] { [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
        let s = apply(b, xyz(source)), t = apply(b, xyz(target))
        let d = [[t[0] / s[0], 0, 0], [0, t[1] / s[1], 0], [0, 0, t[2] / s[2]]]
        return multiply(bi, multiply(d, b))
    }

    private static func apply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        var out = [0.0, 0.0, 0.0]
        for i in 0..<3 {
            var sum = 0.0
            for k in 0..<3 { sum += m[i][k] * v[k] }
            out[i] = sum
        }
        return out
    }

    private static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        var out = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[i][k] * b[k][j] }
                out[i][j] = sum
            }
        }
        return out
    }

    private static func inverse(_ m: [[Double]]) -> [[Double]]? {
        let a = m[0][0], b = m[0][1], c = m[0][2]
        let d = m[1][0], e = m[1][1], f = m[1][2]
        let g = m[2][0], h = m[2][1], i = m[2][2]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(det) > 1e-12 else { return nil }
        return [
            [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
        ]
    }
}
