import Foundation

/// Fast float sRGB encoding and decoding for filters that work on perceptual (gamma-encoded) values: table
/// lookup with linear interpolation on 0...4 (error below 2·10⁻⁵ on 0...1, below 10⁻⁷ above, where the curves
/// bend less), the exact formula outside it (extended range keeps its sign). The tables reach past 1 because
/// brightened pixels go there (an exposure of +0.6 EV takes white to 1.5), and `pow` for each of them cost a
/// fifth of an Adjust panel's render.
enum TransferCurve {
    /// Entries per unit.
    private static let size = 4096
    /// The tables' end.
    fileprivate static let limit: Float = 4

    /// `SRGB.fromLinear` (the formula extended past 1) sampled at `i / 4096` up to 4, plus one guard entry.
    private static let encodeTable: [Float] = (0...Int(limit) * size + 1).map { SRGB.fromLinear(min(limit, Float($0) / Float(size))) }
    /// `SRGB.toLinear` (the formula extended past 1) sampled at `i / 4096` up to 4, plus one guard entry.
    private static let decodeTable: [Float] = (0...Int(limit) * size + 1).map { SRGB.toLinear(min(limit, Float($0) / Float(size))) }

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
    fileprivate static func lookup(_ table: UnsafeMutablePointer<Float>, _ v: Float) -> Float {
        let x = v * Float(size)
        let i = Int(x)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// Linear light → sRGB-encoded value.
    @inline(__always)
    static func encode(_ v: Float) -> Float {
        if v >= 0 && v <= limit { return lookup(encodePointer, v) }
        if v.isNaN { return 0 }
        return v < 0 ? -SRGB.fromLinear(-v) : SRGB.fromLinear(v)
    }

    /// sRGB-encoded value → linear light.
    @inline(__always)
    static func decode(_ v: Float) -> Float {
        if v >= 0 && v <= limit { return lookup(decodePointer, v) }
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

    /// Both tables, fetched once for a loop over many pixels (each use of a static table otherwise checks that
    /// it is made).
    static var tables: Tables { Tables(encode: encodePointer, decode: decodePointer) }
}

/// ``TransferCurve``'s tables in hand: the same lookups, the same results.
struct Tables {
    let encode: UnsafeMutablePointer<Float>
    let decode: UnsafeMutablePointer<Float>

    /// Linear light → sRGB-encoded, for the colour channels; alpha unchanged.
    @inline(__always)
    func encode(_ p: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(encode(p[0]), encode(p[1]), encode(p[2]), p[3])
    }

    /// sRGB-encoded → linear light, for the colour channels; alpha unchanged.
    @inline(__always)
    func decode(_ p: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(decode(p[0]), decode(p[1]), decode(p[2]), p[3])
    }

    @inline(__always)
    func encode(_ v: Float) -> Float {
        v >= 0 && v <= TransferCurve.limit ? TransferCurve.lookup(encode, v) : TransferCurve.encode(v)
    }

    @inline(__always)
    func decode(_ v: Float) -> Float {
        v >= 0 && v <= TransferCurve.limit ? TransferCurve.lookup(decode, v) : TransferCurve.decode(v)
    }
}
