import Foundation

/// Remaps tones through a smooth curve through five points: Core Image's `CIToneCurve`.
///
/// The curve `f` is the monotone piecewise-cubic Hermite interpolant (Fritsch–Carlson, exactly as SciPy's
/// `PchipInterpolator`) through the points `(x₀, y₀) … (x₄, y₄)`, whose x must increase. With
/// `h_k = x_{k+1} − x_k` and `δ_k = (y_{k+1} − y_k) / h_k`, the slopes at the points are
/// ```
/// d_k = 0                                                  if δ_{k−1} · δ_k ≤ 0      (inner points)
/// (w₁ + w₂) / d_k = w₁ / δ_{k−1} + w₂ / δ_k                 otherwise, w₁ = 2h_k + h_{k−1}, w₂ = h_k + 2h_{k−1}
/// d₀ = ((2h₀ + h₁) δ₀ − h₀ δ₁) / (h₀ + h₁), set to 0 if its sign differs from δ₀'s, and to 3δ₀ if δ₀ and
///      δ₁ differ in sign and |d₀| > 3|δ₀|                   (and likewise d₄ from the last two intervals)
/// ```
/// and on each interval `f` is the cubic Hermite polynomial with those values and slopes. Below `x₀` and above
/// `x₄` the curve continues as a straight line with the end slope (`y₀ + d₀ (v − x₀)`, `y₄ + d₄ (v − x₄)`), so
/// values outside 0…1 are neither clipped nor folded back.
///
/// `f` is applied to each of R, G and B in the sRGB-encoded value of the linear working-space pixel
/// (unpremultiplied), and the result decoded back to linear light: `rgb' = decode(f(encode(rgb)))`. Alpha is
/// unchanged. Between `x₀` and `x₄`, `decode ∘ f` is read from one 4096-entry table with linear interpolation
/// (within 10⁻⁶ for any curve with moderate bends); encoding uses the engine's table (within 2·10⁻⁵). A curve
/// through points on `y = x` (the default) is the identity and leaves the image exactly as it was.
public struct ToneCurve: Filter {
    /// Core Image name `CIToneCurve`; keys `inputPoint0` … `inputPoint4`, offsets (not positions: never
    /// flipped or scaled with the image).
    public static let descriptor = FilterDescriptor(
        name: "ToneCurve", coreImageName: "CIToneCurve", displayName: "Tone Curve",
        categories: [.colorAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary: "Adjusts tone response of the R, G, and B channels of an image.",
        parameters: (0..<5).map { i in
            let v = Double(i) / 4
            return FilterParameter(
                key: "point\(i)", kind: .offset, summary: "A point (input, output) of the curve, in sRGB-encoded values; x must increase.",
                defaultValue: .vector([v, v]), identity: .vector([v, v]))
        })

    /// The number of entries of the curve's lookup table.
    static let tableSize = 4096

    /// The first point (input, output).
    public var point0: SIMD2<Double>
    /// The second point.
    public var point1: SIMD2<Double>
    /// The third point.
    public var point2: SIMD2<Double>
    /// The fourth point.
    public var point3: SIMD2<Double>
    /// The last point.
    public var point4: SIMD2<Double>

    /// Creates the filter from five points with increasing x (``validate()`` refuses others; ``apply(to:)``
    /// leaves the image unchanged for them).
    public init(
        point0: SIMD2<Double> = [0, 0], point1: SIMD2<Double> = [0.25, 0.25], point2: SIMD2<Double> = [0.5, 0.5],
        point3: SIMD2<Double> = [0.75, 0.75], point4: SIMD2<Double> = [1, 1]
    ) {
        self.point0 = point0
        self.point1 = point1
        self.point2 = point2
        self.point3 = point3
        self.point4 = point4
    }

    /// The five points in order.
    public var points: [SIMD2<Double>] { [point0, point1, point2, point3, point4] }

    /// Every coordinate must be finite and each point's x greater than the previous point's.
    public func validate() throws(FilterError) {
        let p = points
        for i in 0..<5 where !(p[i].x.isFinite && p[i].y.isFinite) {
            throw .notFinite(filter: "CIToneCurve", key: "inputPoint\(i)")
        }
        for i in 1..<5 where !(p[i].x > p[i - 1].x) {
            throw .wrongType(
                filter: "CIToneCurve", key: "inputPoint\(i)", expected: "a point whose x is greater than inputPoint\(i - 1)'s (\(p[i - 1].x))",
                value: "[\(p[i].x) \(p[i].y)]")
        }
    }

    /// Whether every point lies on `y = x`, where the curve is the identity.
    var isIdentity: Bool { points.allSatisfy { $0.x == $0.y } }

    /// The curve applied through its lookup table; the unchanged image for the identity or invalid points.
    public func apply(to image: Image) -> Image {
        if isIdentity || (try? validate()) == nil { return image }
        return image.applyingPointKernel(Kernel(curve: Spline(points: points)))
    }

    /// The monotone cubic through five points (SciPy's `PchipInterpolator`), with straight ends.
    struct Spline: Sendable {
        let x: [Double]
        let y: [Double]
        let d: [Double]

        init(points: [SIMD2<Double>]) {
            let x = points.map(\.x), y = points.map(\.y)
            self.x = x
            self.y = y
            let n = x.count
            let h = (0..<n - 1).map { x[$0 + 1] - x[$0] }
            let m = (0..<n - 1).map { (y[$0 + 1] - y[$0]) / h[$0] }
            var d = [Double](repeating: 0, count: n)
            for k in 1..<n - 1 where m[k - 1] * m[k] > 0 {
                let w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1]
                d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k])
            }
            d[0] = Self.edge(h[0], h[1], m[0], m[1])
            d[n - 1] = Self.edge(h[n - 2], h[n - 3], m[n - 2], m[n - 3])
            self.d = d
        }

        /// SciPy's one-sided three-point end slope, kept monotone.
        static func edge(_ h0: Double, _ h1: Double, _ m0: Double, _ m1: Double) -> Double {
            func signum(_ v: Double) -> Double { v > 0 ? 1 : v < 0 ? -1 : 0 }
            let d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
            if signum(d) != signum(m0) { return 0 }
            if signum(m0) != signum(m1) && abs(d) > 3 * abs(m0) { return 3 * m0 }
            return d
        }

        /// The curve at `v`.
        func callAsFunction(_ v: Double) -> Double {
            let n = x.count
            if v <= x[0] { return y[0] + d[0] * (v - x[0]) }
            if v >= x[n - 1] { return y[n - 1] + d[n - 1] * (v - x[n - 1]) }
            var k = 0
            while k < n - 2 && v > x[k + 1] { k += 1 }
            let h = x[k + 1] - x[k]
            let t = (v - x[k]) / h
            let t2 = t * t, t3 = t2 * t
            return (2 * t3 - 3 * t2 + 1) * y[k] + (t3 - 2 * t2 + t) * h * d[k] + (-2 * t3 + 3 * t2) * y[k + 1] + (t3 - t2) * h * d[k + 1]
        }
    }

    /// Encodes, looks up the curve, decodes.
    struct Kernel: PointKernel {
        let x0: Float
        let x1: Float
        let y0: Float
        let y1: Float
        let slope0: Float
        let slope1: Float
        let scale: Float
        /// `decode(f(x))` at `x = x₀ + i (x₄ − x₀) / (tableSize − 1)`: linear light.
        let table: [Float]

        init(curve: Spline) {
            let n = ToneCurve.tableSize
            let lo = curve.x[0], hi = curve.x[4]
            x0 = Float(lo)
            x1 = Float(hi)
            y0 = Float(curve.y[0])
            y1 = Float(curve.y[4])
            slope0 = Float(curve.d[0])
            slope1 = Float(curve.d[4])
            scale = Float(Double(n - 1) / (hi - lo))
            func decode(_ y: Double) -> Double {
                let a = abs(y)
                let linear = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
                return y < 0 ? -linear : linear
            }
            table = (0..<n).map { i in Float(decode(curve(i == n - 1 ? hi : lo + Double(i) * (hi - lo) / Double(n - 1)))) }
        }

        var colorMatrix: ColorMatrix? { nil }
        var preservesAlpha: Bool { true }

        /// `decode(f(v))` for an encoded value `v`.
        @inline(__always)
        func curve(_ v: Float, _ table: UnsafeBufferPointer<Float>) -> Float {
            if v <= x0 { return TransferCurve.decode(y0 + slope0 * (v - x0)) }
            if v >= x1 { return TransferCurve.decode(y1 + slope1 * (v - x1)) }
            let position = (v - x0) * scale
            let i = min(Int(position), table.count - 2)
            let f = position - Float(i)
            return table[i] + (table[i + 1] - table[i]) * f
        }

        func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
            table.withUnsafeBufferPointer { t in
                for i in 0..<count {
                    let e = TransferCurve.encode(pixels[i])
                    pixels[i] = SIMD4(curve(e[0], t), curve(e[1], t), curve(e[2], t), e[3])
                }
            }
        }
    }
}
