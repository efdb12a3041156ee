import Foundation

/// White balance: Core Image's `CITemperatureAndTint`. The white of the light described by `neutral` becomes
/// the white of the light described by `targetNeutral`.
///
/// Each of `neutral` and `targetNeutral` is (temperature in kelvin, tint). Its white point is found as follows:
/// 1. The CIE 1931 chromaticity (x, y) of the Planckian locus at temperature `T`, by Kim et al.'s cubic
///    approximation (Kim, Kang et al., "Design of advanced color temperature control system for HDTV
///    applications", 2002):
///    ```
///    x = −0.2661239e9/T³ − 0.2343589e6/T² + 0.8776956e3/T + 0.179910     T ≤ 4000 K
///    x = −3.0258469e9/T³ + 2.1070379e6/T² + 0.2226347e3/T + 0.240390     T > 4000 K
///    y = −1.1063814x³ − 1.34811020x² + 2.18555832x − 0.20219683          T ≤ 2222 K
///    y = −0.9549476x³ − 1.37418593x² + 2.09137015x − 0.16748867          2222 K < T ≤ 4000 K
///    y =  3.0817580x³ − 5.87338670x² + 3.75112997x − 0.37001483          T > 4000 K
///    ```
///    (the published range is 1667…25 000 K; above it the last pieces are used as they are).
/// 2. Tint moves that point off the locus along its normal in the CIE 1960 (u, v) diagram
///    (`u = 4x / (−2x + 12y + 3)`, `v = 6y / (−2x + 12y + 3)`) by `tint / 3000`, as Adobe's DNG SDK does:
///    `(u, v) += tint / 3000 · n`, with `n` the unit normal `(dv/dT, −du/dT) / |(du/dT, dv/dT)|` (the
///    derivatives taken exactly from the formulas above), which points to the green side of the locus. So
///    a positive tint is a greener light, and as the neutral it makes the picture more magenta.
/// 3. Back to (x, y) (`x = 3u / (2u − 8v + 4)`, `y = 2v / (2u − 8v + 4)`) and to XYZ with Y = 1.
///
/// The filter is the Bradford chromatic adaptation from the neutral's white `W_n` to the target's `W_t`, as
/// one 3×3 matrix on linear sRGB (so it fuses with neighbouring colour matrices):
/// ```
/// M = XYZ→RGB · B⁻¹ · diag(B·W_t / B·W_n) · B · RGB→XYZ
/// B = [ 0.8951  0.2664 −0.1614 ; −0.7502  1.7135  0.0367 ; 0.0389 −0.0685  1.0296 ]
/// ```
/// with RGB→XYZ the sRGB primaries' matrix (x, y of R 0.64, 0.33; G 0.30, 0.60; B 0.15, 0.06; white D65
/// 0.3127, 0.3290). Alpha is unchanged. A neutral equal to the target is the identity. A target cooler (lower
/// temperature) than the neutral warms the picture; a neutral warmer than the target cools it.
///
/// Temperatures are 2000…50 000 K (a user interface might offer 2500…10 000 K), tints −150…150; the
/// descriptor cannot state ranges for each of a vector's numbers, so ``validate()`` checks them.
public struct TemperatureAndTint: PointFilter {
    /// Core Image name `CITemperatureAndTint`; keys `inputNeutral` and `inputTargetNeutral`, offsets (not
    /// positions: never flipped or scaled with the image).
    public static let descriptor = FilterDescriptor(
        name: "TemperatureAndTint", coreImageName: "CITemperatureAndTint", displayName: "Temperature and Tint",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adapts the reference white point for an image.",
        parameters: [
            FilterParameter(
                key: "neutral", kind: .offset,
                summary: "The light the picture was taken in: temperature (2000…50000 K) and tint (−150…150, + is greener).",
                defaultValue: .vector([6500, 0]), identity: .vector([6500, 0])),
            FilterParameter(
                key: "targetNeutral", kind: .offset,
                summary: "The light whose white the neutral's white becomes: temperature (2000…50000 K) and tint (−150…150).",
                defaultValue: .vector([6500, 0]), identity: .vector([6500, 0])),
        ])

    /// The temperatures the filter accepts, in kelvin.
    public static let temperatureRange: ClosedRange<Double> = 2000...50_000
    /// The tints the filter accepts.
    public static let tintRange: ClosedRange<Double> = -150...150

    /// The source light: (temperature in kelvin, tint).
    public var neutral: SIMD2<Double>
    /// The light the source's white is adapted to: (temperature in kelvin, tint).
    public var targetNeutral: SIMD2<Double>

    /// Creates the filter; temperatures are clamped to 2000…50 000 K and tints to −150…150.
    public init(neutral: SIMD2<Double> = [6500, 0], targetNeutral: SIMD2<Double> = [6500, 0]) {
        self.neutral = Self.clamped(neutral)
        self.targetNeutral = Self.clamped(targetNeutral)
    }

    private static func clamped(_ v: SIMD2<Double>) -> SIMD2<Double> {
        let t = v.x.isFinite ? min(max(v.x, temperatureRange.lowerBound), temperatureRange.upperBound) : 6500
        let tint = v.y.isFinite ? min(max(v.y, tintRange.lowerBound), tintRange.upperBound) : 0
        return SIMD2(t, tint)
    }

    /// Temperatures must lie in 2000…50 000 K and tints in −150…150.
    public func validate() throws(FilterError) {
        for (key, value) in [("inputNeutral", neutral), ("inputTargetNeutral", targetNeutral)] {
            if !Self.temperatureRange.contains(value.x) {
                throw .parameterOutOfRange(
                    filter: "CITemperatureAndTint", key: key, value: value.x, minimum: Self.temperatureRange.lowerBound,
                    maximum: Self.temperatureRange.upperBound)
            }
            if !Self.tintRange.contains(value.y) {
                throw .parameterOutOfRange(
                    filter: "CITemperatureAndTint", key: key, value: value.y, minimum: Self.tintRange.lowerBound,
                    maximum: Self.tintRange.upperBound)
            }
        }
    }

    /// The Bradford adaptation as a colour matrix; the identity when the two lights are the same.
    public var colorMatrix: ColorMatrix? {
        if neutral == targetNeutral { return .identity }
        let m = Self.adaptation(from: Self.whitePoint(neutral), to: Self.whitePoint(targetNeutral))
        func row(_ i: Int) -> SIMD3<Float> { SIMD3(Float(m[i].x), Float(m[i].y), Float(m[i].z)) }
        return ColorMatrix(rgb: (row(0), row(1), row(2)))
    }

    /// Applies the matrix.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        (colorMatrix ?? .identity).apply(to: pixel)
    }

    // MARK: - Colorimetry

    /// The CIE 1931 (x, y) of the Planckian locus at `t` kelvin (Kim et al. 2002) and its derivative d(x, y)/dT.
    static func planckian(_ t: Double) -> (xy: SIMD2<Double>, derivative: SIMD2<Double>) {
        let (a, b, c, d): (Double, Double, Double, Double) =
            t <= 4000 ? (-0.2661239e9, -0.2343589e6, 0.8776956e3, 0.179910) : (-3.0258469e9, 2.1070379e6, 0.2226347e3, 0.240390)
        let x = a / (t * t * t) + b / (t * t) + c / t + d
        let dx = -3 * a / (t * t * t * t) - 2 * b / (t * t * t) - c / (t * t)
        let (p, q, r, s): (Double, Double, Double, Double)
        if t <= 2222 {
            (p, q, r, s) = (-1.1063814, -1.34811020, 2.18555832, -0.20219683)
        } else if t <= 4000 {
            (p, q, r, s) = (-0.9549476, -1.37418593, 2.09137015, -0.16748867)
        } else {
            (p, q, r, s) = (3.0817580, -5.87338670, 3.75112997, -0.37001483)
        }
        let y = ((p * x + q) * x + r) * x + s
        let dy = (3 * p * x * x + 2 * q * x + r) * dx
        return (SIMD2(x, y), SIMD2(dx, dy))
    }

    /// The XYZ (Y = 1) of a (temperature, tint) white: the locus point moved `tint / 3000` along the locus's
    /// normal in CIE 1960 (u, v), towards green for a positive tint.
    static func whitePoint(_ light: SIMD2<Double>) -> SIMD3<Double> {
        let (xy, dxy) = planckian(light.x)
        let (x, y, dx, dy) = (xy.x, xy.y, dxy.x, dxy.y)
        let den = -2 * x + 12 * y + 3
        let dden = -2 * dx + 12 * dy
        var u = 4 * x / den, v = 6 * y / den
        let du = (4 * dx * den - 4 * x * dden) / (den * den)
        let dv = (6 * dy * den - 6 * y * dden) / (den * den)
        let length = (du * du + dv * dv).squareRoot()
        let offset = light.y / 3000
        u += offset * dv / length
        v -= offset * du / length
        let w = 2 * u - 8 * v + 4
        let wx = 3 * u / w, wy = 2 * v / w
        return SIMD3(wx / wy, 1, (1 - wx - wy) / wy)
    }

    /// A 3×3 matrix as rows.
    typealias Matrix3 = [SIMD3<Double>]

    static func multiply(_ a: Matrix3, _ b: Matrix3) -> Matrix3 {
        a.map { row in b[0] * row.x + b[1] * row.y + b[2] * row.z }
    }

    static func inverse(_ m: Matrix3) -> Matrix3 {
        let (a, b, c) = (m[0], m[1], m[2])
        func cross(_ p: SIMD3<Double>, _ q: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x)
        }
        let (r0, r1, r2) = (cross(b, c), cross(c, a), cross(a, b))
        let det = (a * r0).sum()
        // Columns of the inverse are the cross products over the determinant.
        return [
            SIMD3(r0.x, r1.x, r2.x) / det, SIMD3(r0.y, r1.y, r2.y) / det, SIMD3(r0.z, r1.z, r2.z) / det,
        ]
    }

    /// The Bradford cone-response matrix.
    static let bradford: Matrix3 = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]

    /// Linear sRGB to XYZ, from the sRGB primaries and D65's chromaticity.
    static let rgbToXYZ: Matrix3 = {
        let primaries: [SIMD2<Double>] = [[0.64, 0.33], [0.30, 0.60], [0.15, 0.06]]
        let columns = primaries.map { SIMD3($0.x / $0.y, 1, (1 - $0.x - $0.y) / $0.y) }
        let p: Matrix3 = (0..<3).map { i in SIMD3(columns[0][i], columns[1][i], columns[2][i]) }
        let white = SIMD3(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)
        let inv = inverse(p)
        let scale = SIMD3((inv[0] * white).sum(), (inv[1] * white).sum(), (inv[2] * white).sum())
        return p.map { $0 * scale }
    }()

    /// The linear-sRGB matrix adapting white `source` (XYZ) to white `target` by Bradford.
    static func adaptation(from source: SIMD3<Double>, to target: SIMD3<Double>) -> Matrix3 {
        let b = bradford
        let coneSource = SIMD3((b[0] * source).sum(), (b[1] * source).sum(), (b[2] * source).sum())
        let coneTarget = SIMD3((b[0] * target).sum(), (b[1] * target).sum(), (b[2] * target).sum())
        let gain = coneTarget / coneSource
        let diagonal: Matrix3 = [SIMD3(gain.x, 0, 0), SIMD3(0, gain.y, 0), SIMD3(0, 0, gain.z)]
        let xyz = multiply(inverse(b), multiply(diagonal, b))
        return multiply(inverse(rgbToXYZ), multiply(xyz, rgbToXYZ))
    }
}
