/// How a decoder lays out the samples of the rows it delivers.
public enum SourcePixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// One 8-bit sample, encoded with the source's transfer curve.
    case gray8
    /// 8-bit gray and straight alpha.
    case grayAlpha8
    /// 8-bit red, green, blue, encoded with the source's transfer curves.
    case rgb8
    /// 8-bit red, green, blue and straight alpha.
    case rgba8
    /// 16-bit red, green, blue, alpha in linear light with premultiplied alpha (libpng's linear formats).
    case rgba16LinearPremultiplied

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: return 1
        case .grayAlpha8: return 2
        case .rgb8: return 3
        case .rgba8: return 4
        case .rgba16LinearPremultiplied: return 8
        }
    }

    /// Whether the format carries alpha.
    public var hasAlpha: Bool {
        switch self {
        case .grayAlpha8, .rgba8, .rgba16LinearPremultiplied: return true
        case .gray8, .rgb8: return false
        }
    }

    /// A short name such as "rgb8".
    public var description: String {
        switch self {
        case .gray8: return "gray8"
        case .grayAlpha8: return "grayAlpha8"
        case .rgb8: return "rgb8"
        case .rgba8: return "rgba8"
        case .rgba16LinearPremultiplied: return "rgba16-linear-premultiplied"
        }
    }
}

/// A 3×3 matrix acting on linear RGB, stored by rows.
public struct Matrix3: Hashable, Sendable {
    /// The rows.
    public var rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// Creates a matrix from its rows.
    public init(_ r0: SIMD3<Float>, _ r1: SIMD3<Float>, _ r2: SIMD3<Float>) {
        rows = (r0, r1, r2)
    }

    /// The identity.
    public static let identity = Matrix3([1, 0, 0], [0, 1, 0], [0, 0, 1])

    /// `self · v`.
    @inlinable
    public func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// Whether every entry is within `tolerance` of the identity's.
    public func isIdentity(tolerance: Float = 1e-4) -> Bool {
        let i = Matrix3.identity
        let differences: [SIMD3<Float>] = [rows.0 - i.rows.0, rows.1 - i.rows.1, rows.2 - i.rows.2]
        return differences.allSatisfy { d in Swift.abs(d.x) <= tolerance && Swift.abs(d.y) <= tolerance && Swift.abs(d.z) <= tolerance }
    }

    /// Equality of every entry.
    public static func == (l: Matrix3, r: Matrix3) -> Bool {
        l.rows.0 == r.rows.0 && l.rows.1 == r.rows.1 && l.rows.2 == r.rows.2
    }

    /// Hashes every entry.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }
}

/// How a source's samples map into Sepia's working space (linear light, sRGB primaries).
///
/// Decoders describe their colour with per-channel transfer curves (for 8-bit formats) and an optional matrix
/// from the source's linear primaries to sRGB's. This covers sRGB, Display P3, Adobe RGB, Rec. 2020 and every
/// other matrix/TRC ICC profile; decoders convert anything else themselves and report ``sRGB``.
public struct SourceColor: Sendable, Hashable {
    /// A human-readable name of the source colour space (an ICC profile's description, or "sRGB").
    public var name: String
    /// For each of red, green and blue, the linear-light value of each 8-bit code (256 entries).
    /// Gray formats use the red curve.
    public var curves: [[Float]]
    /// Converts the source's linear primaries to linear sRGB; nil when they already are sRGB's.
    public var matrix: Matrix3?

    /// Creates a colour description; `curves` holds three tables of 256 values.
    public init(name: String, curves: [[Float]], matrix: Matrix3?) {
        precondition(curves.count == 3 && curves.allSatisfy { $0.count == 256 }, "three 256-entry curves are needed")
        self.name = name
        self.curves = curves
        self.matrix = matrix.flatMap { $0.isIdentity(tolerance: 1e-6) ? nil : $0 }
    }

    /// sRGB: the sRGB transfer curve on every channel and no matrix.
    public static let sRGB = SourceColor(
        name: "sRGB", curves: Array(repeating: SRGB.decodeTable8, count: 3), matrix: nil)

    /// Whether this is plain sRGB (the fast path).
    public var isSRGB: Bool { matrix == nil && curves.allSatisfy { $0 == SRGB.decodeTable8 } }
}
