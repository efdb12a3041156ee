/// Converts decoded rows into working-space pixels: per-channel transfer curves by table lookup, an optional
/// primaries matrix, then premultiplication.
///
/// Sendable: the tables are written once in `init` and only read afterwards.
final class SourceRowConverter: @unchecked Sendable {
    let format: SourcePixelFormat
    private let curves: UnsafeMutablePointer<Float>  // 3 × 256: red, green, blue
    private let matrix: Matrix3?
    /// The matrix's columns, alpha 0: `matrix · v` is `v.r · c0 + v.g · c1 + v.b · c2`, three vector
    /// multiply-adds with no horizontal sums.
    private let columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    init(format: SourcePixelFormat, color: SourceColor) {
        self.format = format
        curves = .allocate(capacity: 768)
        for c in 0..<3 {
            for i in 0..<256 {
                curves[c * 256 + i] = color.curves[c][i]
            }
        }
        matrix = color.matrix
        let m = color.matrix ?? .identity
        columns = (
            SIMD4(m.rows.0.x, m.rows.1.x, m.rows.2.x, 0), SIMD4(m.rows.0.y, m.rows.1.y, m.rows.2.y, 0),
            SIMD4(m.rows.0.z, m.rows.1.z, m.rows.2.z, 0)
        )
    }

    deinit {
        curves.deallocate()
    }

    /// Converts `count` pixels starting at `src` into `dst`.
    func convert(_ src: UnsafeRawPointer, count: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>) {
        let lr = curves
        let lg = curves + 256
        let lb = curves + 512
        let s = src.assumingMemoryBound(to: UInt8.self)
        switch format {
        case .rgb8:
            if matrix != nil {
                let (c0, c1, c2) = columns
                let opaque = SIMD4<Float>(0, 0, 0, 1)
                for i in 0..<count {
                    let p = s + 3 * i
                    dst[i] = opaque + c0 * lr[Int(p[0])] + c1 * lg[Int(p[1])] + c2 * lb[Int(p[2])]
                }
            } else {
                for i in 0..<count {
                    let p = s + 3 * i
                    dst[i] = SIMD4(lr[Int(p[0])], lg[Int(p[1])], lb[Int(p[2])], 1)
                }
            }
        case .rgba8:
            let (c0, c1, c2) = columns
            for i in 0..<count {
                let p = s + 4 * i
                let a = Float(p[3]) * (1 / 255)
                var v = c0 * lr[Int(p[0])] + c1 * lg[Int(p[1])] + c2 * lb[Int(p[2])]
                v.w = 1
                dst[i] = v * a
            }
        case .gray8:
            for i in 0..<count {
                let l = lr[Int(s[i])]
                dst[i] = SIMD4(l, l, l, 1)
            }
        case .grayAlpha8:
            for i in 0..<count {
                let p = s + 2 * i
                let a = Float(p[1]) * (1 / 255)
                let l = lr[Int(p[0])] * a
                dst[i] = SIMD4(l, l, l, a)
            }
        case .rgba16LinearPremultiplied:
            let w = src.assumingMemoryBound(to: UInt16.self)
            let scale: Float = 1 / 65535
            let (c0, c1, c2) = columns
            for i in 0..<count {
                let p = w + 4 * i
                var v = c0 * (Float(p[0]) * scale) + c1 * (Float(p[1]) * scale) + c2 * (Float(p[2]) * scale)
                v.w = Float(p[3]) * scale
                dst[i] = v
            }
        }
    }
}

/// Converts working-space pixels to 8-bit sRGB samples with straight alpha.
enum OutputRowEncoder {
    /// Encodes `count` pixels from `src` into `dst` in `layout`. Layouts without alpha composite the pixels
    /// over `background` (linear light) first; `opaque` promises every alpha is 1.
    static func encode(
        _ src: UnsafePointer<SIMD4<Float>>, count: Int, layout: Bitmap.Layout, opaque: Bool,
        background: SIMD3<Float>, table: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>
    ) {
        let scale = Float(SRGB.encodeTableSize - 1)
        let mask = SIMD4<UInt32>(repeating: 0x3F_FFFF)
        /// Table indexes of a pixel's channels: clamped to 0...1 and rounded to 16 bits, all four at once.
        @inline(__always) func code(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
            // Clamp (NaN becomes 0), scale, and round to nearest by adding 1.5 × 2^23: the integer then sits
            // in the low mantissa bits, read without a checked float-to-int conversion.
            let positive = v.replacing(with: 0, where: .!(v .> 0))
            let clamped = positive.replacing(with: 1, where: positive .> 1)
            return unsafeBitCast(clamped * scale + 12_582_912, to: SIMD4<UInt32>.self) & mask
        }
        switch layout {
        case .rgb:
            if opaque {
                for i in 0..<count {
                    let c = code(src[i])
                    let d = dst + 3 * i
                    d[0] = table[Int(c[0])]
                    d[1] = table[Int(c[1])]
                    d[2] = table[Int(c[2])]
                }
            } else {
                let bg = SIMD4(background, 0)
                for i in 0..<count {
                    let p = src[i]
                    let c = code(p + bg * (1 - p[3]))
                    let d = dst + 3 * i
                    d[0] = table[Int(c[0])]
                    d[1] = table[Int(c[1])]
                    d[2] = table[Int(c[2])]
                }
            }
        case .rgba:
            for i in 0..<count {
                var p = src[i]
                let a = min(max(p[3], 0), 1)
                if a > 0 && a < 1 { p = p / a } else if a <= 0 { p = .zero }
                let c = code(p)
                let d = dst + 4 * i
                d[0] = table[Int(c[0])]
                d[1] = table[Int(c[1])]
                d[2] = table[Int(c[2])]
                d[3] = UInt8((a * 255).rounded())
            }
        case .gray:
            let bg = SIMD4(background, 0)
            for i in 0..<count {
                let p = opaque ? src[i] : src[i] + bg * (1 - src[i][3])
                let l = SIMD4<Float>(repeating: 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])
                dst[i] = table[Int(code(l)[0])]
            }
        case .grayAlpha:
            for i in 0..<count {
                var p = src[i]
                let a = min(max(p[3], 0), 1)
                if a > 0 && a < 1 { p = p / a } else if a <= 0 { p = .zero }
                let l = SIMD4<Float>(repeating: 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])
                dst[2 * i] = table[Int(code(l)[0])]
                dst[2 * i + 1] = UInt8((a * 255).rounded())
            }
        }
    }
}
