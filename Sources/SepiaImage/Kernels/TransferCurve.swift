import Foundation

/// Fast float sRGB encoding and decoding for filters that work on perceptual (gamma-encoded) values: table
/// lookup with linear interpolation on 0...1 (error below 2·10⁻⁵), the exact formula outside it (extended
/// range keeps its sign).
enum TransferCurve {
    private static let size = 4096

    /// `SRGB.fromLinear` sampled at `i / 4096`, plus one guard entry.
    private static let encodeTable: [Float] = (0...size + 1).map { SRGB.fromLinear(min(1, Float($0) / Float(size))) }
    /// `SRGB.toLinear` sampled at `i / 4096`, plus one guard entry.
    private static let decodeTable: [Float] = (0...size + 1).map { SRGB.toLinear(min(1, Float($0) / Float(size))) }

    /// Tables as raw pointers for the inner loops; allocated once and never freed.
    nonisolated(unsafe) static let encodePointer: UnsafeMutablePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: encodeTable.count)
        p.initialize(from: encodeTable, count: encodeTable.count)
        return p
    }()

    nonisolated(unsafe) static let decodePointer: UnsafeMutablePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: decodeTable.count)
        p.initialize(from: decodeTable, count: decodeTable.count)
        return p
    }()

    @inline(__always)
    private static func lookup(_ table: UnsafeMutablePointer<Float>, _ v: Float) -> Float {
        let x = v * Float(size)
        let i = Int(x)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// Linear light → sRGB-encoded value.
    @inline(__always)
    static func encode(_ v: Float) -> Float {
        if v >= 0 && v <= 1 { return lookup(encodePointer, v) }
        if v.isNaN { return 0 }
        return v < 0 ? -SRGB.fromLinear(-v) : SRGB.fromLinear(v)
    }

    /// sRGB-encoded value → linear light.
    @inline(__always)
    static func decode(_ v: Float) -> Float {
        if v >= 0 && v <= 1 { return lookup(decodePointer, v) }
        if v.isNaN { return 0 }
        return v < 0 ? -SRGB.toLinear(-v) : SRGB.toLinear(v)
    }

    /// Encodes the colour channels of a pixel; alpha unchanged.
    @inline(__always)
    static func encode(_ p: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(encode(p[0]), encode(p[1]), encode(p[2]), p[3])
    }

    /// Decodes the colour channels of a pixel; alpha unchanged.
    @inline(__always)
    static func decode(_ p: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(decode(p[0]), decode(p[1]), decode(p[2]), p[3])
    }
}
