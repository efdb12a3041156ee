import Foundation
import SepiaImage

/// Turns HDR video samples (PQ or HLG, decoded to 16-bit non-linear RGB) into SDR sRGB, the way FFmpeg's
/// `zscale` + `tonemap=hable` chain does, so that a poster looks like what players show on an SDR screen:
///
/// 1. The transfer function is undone into display light, in units of 100 cd/m² (FFmpeg's reference white):
///    PQ by its EOTF (SMPTE ST 2084), HLG by its inverse OETF and the BT.2100 OOTF for a display of peak
///    `Lw` (γ = 1.2 + 0.42 log10(Lw / 1000), α = Lw), applied on the luminance so hues stay.
/// 2. The primaries are converted to BT.709/sRGB in linear light (BT.2020 → BT.709 for nearly every HDR video).
/// 3. John Hable's filmic curve (Uncharted 2) compresses the range `0…peak` to `0…1`, applied to the largest
///    of R, G and B and scaling all three by the same factor, so hues and saturation are kept and nothing
///    clips below the peak: `out = rgb · hable(m) / hable(peak) / m`, `m = max(r, g, b)`, with
///    `hable(x) = (x(0.15x + 0.05) + 0.004) / (x(0.15x + 0.5) + 0.06) − 0.02 / 0.3`.
/// 4. The result is clipped to 0…1 and encoded with the sRGB transfer function.
///
/// The peak is the content's MaxCLL, else the mastering display's peak, else an assumed 1000 cd/m²
/// (``VideoOptions/assumedPeakLuminance``); for HLG it is the OOTF's display peak.
struct ToneMapper: Sendable {
    let range: DynamicRange
    /// The peak, in units of 100 cd/m².
    let peak: Float
    /// From the video's linear primaries to BT.709's.
    let toBT709: Matrix3
    private let hablePeak: Float
    /// HLG's OOTF: α (the display peak in units of 100 cd/m²) and γ − 1.
    private let ootfScale: Float
    private let ootfExponent: Float

    init(range: DynamicRange, peakLuminance: Double, primaries: String?) {
        self.range = range
        let peakNits = peakLuminance.isFinite && peakLuminance > 0 ? min(max(peakLuminance, 100), 10_000) : 1000
        peak = Float(peakNits / 100)
        hablePeak = Self.hable(peak)
        ootfScale = Float(peakNits / 100)
        ootfExponent = Float(1.2 + 0.42 * log10(peakNits / 1000)) - 1
        toBT709 = ColorPrimaries.matrix(from: primaries ?? "bt2020", to: "bt709") ?? .identity
    }

    /// Hable's filmic curve (Uncharted 2), as FFmpeg's `tonemap` filter defines it.
    static func hable(_ x: Float) -> Float {
        let a: Float = 0.15, b: Float = 0.5, c: Float = 0.1, d: Float = 0.2, e: Float = 0.02, f: Float = 0.3
        return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    /// Maps one row of `width` pixels of 16-bit RGB (as swscale writes `rgb48`, native order) to 8-bit sRGB.
    func map(_ source: UnsafePointer<UInt16>, width: Int, into destination: UnsafeMutablePointer<UInt8>) {
        let table = range == .hlg ? Self.hlgTable : Self.pqTable
        let encode = Self.srgbEncodeTable
        let m = toBT709
        let luma = SIMD3<Float>(0.2627, 0.6780, 0.0593)
        table.withUnsafeBufferPointer { eotf in
            encode.withUnsafeBufferPointer { srgb in
                for x in 0..<width {
                    var rgb = SIMD3<Float>(eotf[Int(source[3 * x])], eotf[Int(source[3 * x + 1])], eotf[Int(source[3 * x + 2])])
                    if range == .hlg {
                        // BT.2100's OOTF on scene light: Fd = α · Ys^(γ−1) · E.
                        let ys = (rgb * luma).sum()
                        rgb *= ootfScale * (ys > 0 ? Float(pow(Double(ys), Double(ootfExponent))) : 0)
                    }
                    rgb = m.apply(rgb)
                    let sig = max(max(rgb.x, rgb.y), max(rgb.z, 1e-6))
                    rgb *= Self.hable(sig) / hablePeak / sig
                    let scale = Float(srgb.count - 1)
                    for c in 0..<3 {
                        let v = min(max(rgb[c], 0), 1)
                        destination[3 * x + c] = srgb[Int(v * scale + 0.5)]
                    }
                }
            }
        }
    }

    // MARK: - Tables

    /// PQ's EOTF for every 16-bit code: display light in units of 100 cd/m² (0…100).
    static let pqTable: [Float] = (0..<65536).map { code in
        let m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
        let e = pow(Double(code) / 65535, 1 / m2)
        return Float(100 * pow(max(e - c1, 0) / (c2 - c3 * e), 1 / m1))
    }

    /// HLG's inverse OETF for every 16-bit code: scene light, 0…1.
    static let hlgTable: [Float] = (0..<65536).map { code in
        let a = 0.17883277, b = 0.28466892, c = 0.55991073
        let v = Double(code) / 65535
        return Float(v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12)
    }

    /// The 8-bit sRGB code of each linear value `i / 65535`.
    static let srgbEncodeTable: [UInt8] = (0..<65536).map { i in
        UInt8(min(255, max(0, (SRGB.fromLinear(Float(i) / 65535) * 255).rounded())))
    }
}

/// Colour primaries as FFmpeg names them, and the linear-light matrices between them (chromatic adaptation is
/// not needed: every video primaries FFmpeg names except DCI-P3's share the D65 white).
enum ColorPrimaries {
    /// The CIE xy chromaticities of red, green, blue and white.
    static let chromaticities: [String: [Double]] = [
        "bt709": [0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290],
        "bt2020": [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290],
        "smpte432": [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290],
        "smpte170m": [0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290],
        "bt470bg": [0.640, 0.330, 0.290, 0.600, 0.150, 0.060, 0.3127, 0.3290],
    ]

    /// The matrix from linear RGB in `source` primaries to linear RGB in `target` primaries; nil when either is
    /// unknown.
    static func matrix(from source: String, to target: String) -> Matrix3? {
        guard let s = chromaticities[source], let t = chromaticities[target] else { return nil }
        if source == target { return .identity }
        let m = multiply(inverse(rgbToXYZ(t)), rgbToXYZ(s))
        return Matrix3(
            SIMD3(Float(m[0][0]), Float(m[0][1]), Float(m[0][2])), SIMD3(Float(m[1][0]), Float(m[1][1]), Float(m[1][2])),
            SIMD3(Float(m[2][0]), Float(m[2][1]), Float(m[2][2])))
    }

    /// RGB to XYZ for primaries `p` (xR, yR, xG, yG, xB, yB, xW, yW).
    static func rgbToXYZ(_ p: [Double]) -> [[Double]] {
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let r = xyz(p[0], p[1]), g = xyz(p[2], p[3]), b = xyz(p[4], p[5]), w = xyz(p[6], p[7])
        let columns = [[r[0], g[0], b[0]], [r[1], g[1], b[1]], [r[2], g[2], b[2]]]
        let s = multiply(inverse(columns), w.map { [$0] }).map { $0[0] }
        return columns.map { row in [row[0] * s[0], row[1] * s[1], row[2] * s[2]] }
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        a.map { row in (0..<b[0].count).map { j in (0..<row.count).reduce(0) { $0 + row[$1] * b[$1][j] } } }
    }

    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0], h = m[2][1], i = m[2][2]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [
            [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
        ]
    }
}
