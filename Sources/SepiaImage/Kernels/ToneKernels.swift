/// A gain applied to the colour of each pixel, looked up from its sRGB-encoded luminance: the machinery of
/// highlight/shadow adjustment. The gain multiplies sRGB-encoded colour.
final class LuminanceGainTable: @unchecked Sendable {
    // Sendable: written once in init.
    static let size = 1024
    private let gains: UnsafeMutablePointer<Float>

    init(_ gain: (Float) -> Float) {
        gains = .allocate(capacity: Self.size + 2)
        for i in 0...(Self.size + 1) {
            gains[i] = gain(min(1, Float(i) / Float(Self.size)))
        }
    }

    deinit {
        gains.deallocate()
    }

    @inline(__always)
    func gain(_ luma: Float) -> Float {
        let x = min(max(luma, 0), 1) * Float(Self.size)
        let i = Int(x)
        let f = x - Float(i)
        return gains[i] + (gains[i + 1] - gains[i]) * f
    }

    /// sRGB-encoded luma of an unpremultiplied linear pixel.
    @inline(__always)
    static func encodedLuma(_ p: SIMD4<Float>) -> Float {
        let e = TransferCurve.encode(p)
        return 0.2126 * e[0] + 0.7152 * e[1] + 0.0722 * e[2]
    }

    /// Scales the encoded colour of `p` by `gain`.
    @inline(__always)
    static func applying(_ gain: Float, to p: SIMD4<Float>) -> SIMD4<Float> {
        applying(gain, toEncoded: TransferCurve.encode(p))
    }

    /// Scales an encoded colour `e` by `gain` and decodes it.
    @inline(__always)
    static func applying(_ gain: Float, toEncoded e: SIMD4<Float>) -> SIMD4<Float> {
        TransferCurve.decode(SIMD4(e[0] * gain, e[1] * gain, e[2] * gain, e[3]))
    }
}

/// Applies a luminance gain table to each pixel (global tone adjustment).
struct GlobalToneKernel: PointKernel {
    let table: LuminanceGainTable

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        let curve = TransferCurve.tables
        for i in 0..<count {
            // The pixel is encoded once, for its luma and for the gain; channel by channel, which the compiler
            // keeps inline (the same lookups as `curve.encode(pixels[i])`).
            let p = pixels[i]
            let r = curve.encode(p[0]), g = curve.encode(p[1]), b = curve.encode(p[2])
            let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let gain = table.gain(luma)
            pixels[i] = SIMD4(curve.decode(r * gain), curve.decode(g * gain), curve.decode(b * gain), p[3])
        }
    }
}

/// Applies a luminance gain table whose luminance comes from a blurred copy (local tone adjustment).
struct LocalToneKernel: BlendKernel {
    let table: LuminanceGainTable

    var preservesAlpha: Bool { true }

    func apply(_ a: UnsafeMutablePointer<SIMD4<Float>>, _ b: UnsafePointer<SIMD4<Float>>, count: Int) {
        for i in 0..<count {
            let p = a[i]
            let alpha = p[3]
            guard alpha > 0 else { continue }
            let colour = alpha == 1 ? p : SIMD4(p[0] / alpha, p[1] / alpha, p[2] / alpha, alpha)
            let q = b[i]
            let local = q[3] > 0 ? SIMD4(q[0] / q[3], q[1] / q[3], q[2] / q[3], 1) : colour
            let gain = table.gain(LuminanceGainTable.encodedLuma(local))
            var out = LuminanceGainTable.applying(gain, to: colour)
            if alpha != 1 { out = SIMD4(out[0] * alpha, out[1] * alpha, out[2] * alpha, alpha) }
            a[i] = out
        }
    }
}
