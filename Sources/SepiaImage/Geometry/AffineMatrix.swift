import Foundation

/// A 2-D affine transform in Core Graphics' form (`CGAffineTransform`): `x' = a·x + c·y + tx`,
/// `y' = b·x + d·y + ty`. Encodes as the array `[a, b, c, d, tx, ty]`.
///
/// Sepia's coordinates have their origin at the top-left and y pointing down, so a positive rotation angle
/// turns the image clockwise on screen (Core Image, with y up, turns it counter-clockwise).
public struct AffineMatrix: Hashable, Sendable, Codable {
    /// Matrix entries.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// Creates a transform from its six entries.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity.
    public static let identity = AffineMatrix(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians about the origin.
    public init(rotationAngle angle: Double) {
        let cs = cos(angle), sn = sin(angle)
        self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    /// The transform applying `self`, then `next`.
    public func concatenating(_ next: AffineMatrix) -> AffineMatrix {
        AffineMatrix(
            a: a * next.a + b * next.c, b: a * next.b + b * next.d,
            c: c * next.a + d * next.c, d: c * next.b + d * next.d,
            tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    /// The inverse, or nil when the transform collapses the plane.
    public var inverted: AffineMatrix? {
        let det = a * d - b * c
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        return AffineMatrix(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// Applies the transform to a point.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// Whether the transform only scales and translates (no rotation or shear).
    public var isAxisAligned: Bool { b == 0 && c == 0 }

    /// The six entries in Core Graphics order (a, b, c, d, tx, ty).
    public var entries: [Double] { [a, b, c, d, tx, ty] }

    /// Decodes `[a, b, c, d, tx, ty]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var values: [Double] = []
        while !container.isAtEnd { values.append(try container.decode(Double.self)) }
        guard values.count == 6 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an affine transform has 6 numbers"))
        }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], tx: values[4], ty: values[5])
    }

    /// Encodes `[a, b, c, d, tx, ty]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for v in entries { try container.encode(v) }
    }

    /// The smallest pixel rectangle containing the transformed `rect`.
    func boundingBox(of rect: IntRect) -> IntRect {
        if rect.isEmpty { return .zero }
        let corners = [
            apply(x: Double(rect.minX), y: Double(rect.minY)), apply(x: Double(rect.maxX), y: Double(rect.minY)),
            apply(x: Double(rect.minX), y: Double(rect.maxY)), apply(x: Double(rect.maxX), y: Double(rect.maxY)),
        ]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let eps = 1e-6
        return IntRect(
            minX: Int(((xs.min() ?? 0) + eps).rounded(.down)), minY: Int(((ys.min() ?? 0) + eps).rounded(.down)),
            maxX: Int(((xs.max() ?? 0) - eps).rounded(.up)), maxY: Int(((ys.max() ?? 0) - eps).rounded(.up)))
    }
}
