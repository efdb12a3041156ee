import Foundation

/// The sRGB transfer function (IEC 61966-2-1) and the lookup tables the engine uses at its edges.
public enum SRGB {
    /// Decodes an sRGB-encoded value (0...1) to linear light.
    public static func toLinear(_ v: Float) -> Float {
        if v <= 0.04045 { return v / 12.92 }
        return Float(pow(Double((v + 0.055) / 1.055), 2.4))
    }

    /// Encodes a linear-light value (0...1) with the sRGB transfer function.
    public static func fromLinear(_ v: Float) -> Float {
        if v <= 0.0031308 { return v * 12.92 }
        return Float(1.055 * pow(Double(v), 1 / 2.4) - 0.055)
    }

    /// Linear light for each 8-bit sRGB code value (256 entries).
    public static let decodeTable8: [Float] = (0..<256).map { toLinear(Float($0) / 255) }

    /// Number of entries in ``encodeTable``: linear values are quantised to 16 bits before lookup.
    static let encodeTableSize = 65536

    /// The 8-bit sRGB code for each linear value `i / 65535`, rounded to nearest. Exact for every value
    /// that came from ``decodeTable8`` (the round trip 8 bit → linear → 8 bit is the identity).
    ///
    /// The codes rise in steps, so the table is filled by finding where each step starts by bisection: 256 × 16
    /// evaluations of the transfer function instead of 65 536, a few milliseconds of every process's start.
    static let encodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: encodeTableSize)
        var start = 0
        for code in 0..<255 {
            // The first index whose code is above `code`.
            var low = start
            var high = encodeTableSize
            while low < high {
                let middle = (low + high) / 2
                if encodedCode(middle) > code { high = middle } else { low = middle + 1 }
            }
            for i in start..<low { table[i] = UInt8(code) }
            start = low
        }
        return table
    }()

    /// The 8-bit code of linear value `index / 65535`.
    static func encodedCode(_ index: Int) -> Int {
        let encoded = fromLinear(Float(index) / Float(encodeTableSize - 1))
        return Int(max(0, min(255, (encoded * 255).rounded())))
    }
}
