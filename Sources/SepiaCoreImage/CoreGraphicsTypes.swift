public import Foundation
public import SepiaImage

// Foundation on Linux has CGFloat, CGPoint, CGSize and CGRect; these are the Core Graphics types Core Image
// code also needs.

/// Core Graphics' affine transform: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (y up, as in Core Image).
public struct CGAffineTransform: Hashable, Sendable {
    /// Matrix entries.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    /// Creates a transform from its entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians (counter-clockwise, y up).
    public init(rotationAngle angle: CGFloat) {
        self.init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
    }

    /// `self` followed by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        let m = AffineMatrix(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
            .concatenating(AffineMatrix(a: t2.a, b: t2.b, c: t2.c, d: t2.d, tx: t2.tx, ty: t2.ty))
        return CGAffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty)
    }

    /// The inverse (the transform itself when it cannot be inverted, as Core Graphics does).
    public func inverted() -> CGAffineTransform {
        guard let m = AffineMatrix(a: a, b: b, c: c, d: d, tx: tx, ty: ty).inverted else { return self }
        return CGAffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty)
    }

    /// `self` then a translation.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// `self` then a scale.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// `self` then a rotation.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Whether this is the identity.
    public var isIdentity: Bool { self == .identity }
}

/// The EXIF orientations under Core Graphics' names.
public enum CGImagePropertyOrientation: UInt32, Sendable, Hashable {
    /// 1.
    case up = 1
    /// 2.
    case upMirrored = 2
    /// 3.
    case down = 3
    /// 4.
    case downMirrored = 4
    /// 5.
    case leftMirrored = 5
    /// 6.
    case right = 6
    /// 7.
    case rightMirrored = 7
    /// 8.
    case left = 8
}

/// A colour space by name. Sepia renders sRGB; other names are accepted and rendered as sRGB.
public final class CGColorSpace: Sendable {
    /// The space's name.
    public let name: String

    /// `kCGColorSpaceSRGB`.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// `kCGColorSpaceDisplayP3`.
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    /// `kCGColorSpaceExtendedLinearSRGB`.
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"

    /// A space by name.
    public init?(name: String) {
        self.name = name
    }
}

/// Device RGB: sRGB here.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.sRGB)!
}

/// Rendered pixels, as `CGImage`: 8-bit sRGB RGBA with straight alpha, rows from the top.
public final class CGImage: Sendable {
    /// The pixels.
    public let bitmap: Bitmap

    /// Wraps rendered pixels (any layout; stored as RGBA).
    public init(bitmap: Bitmap) {
        if bitmap.layout == .rgba {
            self.bitmap = bitmap
        } else {
            var bytes = [UInt8]()
            bytes.reserveCapacity(bitmap.width * bitmap.height * 4)
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let p = bitmap.rgba(x: x, y: y)
                    bytes += [p[0], p[1], p[2], p[3]]
                }
            }
            self.bitmap = Bitmap(width: bitmap.width, height: bitmap.height, layout: .rgba, bytes: bytes)
        }
    }

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }
    /// 8.
    public var bitsPerComponent: Int { 8 }
    /// 32.
    public var bitsPerPixel: Int { 32 }
    /// `width × 4`.
    public var bytesPerRow: Int { bitmap.bytesPerRow }
    /// sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpaceCreateDeviceRGB() }
    /// The RGBA bytes.
    public var data: Data { Data(bitmap.bytes) }
}
