public import Foundation
import SepiaImage

/// An sRGB colour with alpha, components 0–1 (`CIColor`).
public final class CIColor: Sendable, CustomStringConvertible {
    /// Red.
    public let red: CGFloat
    /// Green.
    public let green: CGFloat
    /// Blue.
    public let blue: CGFloat
    /// Alpha.
    public let alpha: CGFloat

    /// Creates a colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Black.
    public static let black = CIColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    /// Grey 50 %.
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    /// Red.
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    /// Green.
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    /// Blue.
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    /// Transparent.
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// `"r g b a"`.
    public var stringRepresentation: String { "\(red) \(green) \(blue) \(alpha)" }

    /// The string representation.
    public var description: String { stringRepresentation }

    var components: [Double] { [Double(red), Double(green), Double(blue), Double(alpha)] }

    /// The colour in the working space: linear light, premultiplied.
    var workingSpace: SIMD4<Float> {
        let a = Float(alpha)
        return SIMD4(SRGB.toLinear(Float(red)) * a, SRGB.toLinear(Float(green)) * a, SRGB.toLinear(Float(blue)) * a, a)
    }
}

/// A vector of numbers (`CIVector`): points, rectangles, colour-matrix rows.
public final class CIVector: Sendable, CustomStringConvertible {
    private let values: [CGFloat]

    /// Creates a vector of `count` values.
    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: count))
    }

    /// Creates a vector from an array.
    public init(array: [CGFloat]) {
        values = array
    }

    /// A 1-vector.
    public convenience init(x: CGFloat) { self.init(array: [x]) }
    /// A 2-vector.
    public convenience init(x: CGFloat, y: CGFloat) { self.init(array: [x, y]) }
    /// A 3-vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init(array: [x, y, z]) }
    /// A 4-vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init(array: [x, y, z, w]) }
    /// A point.
    public convenience init(cgPoint p: CGPoint) { self.init(array: [p.x, p.y]) }
    /// A rectangle: x, y, width, height.
    public convenience init(cgRect r: CGRect) { self.init(array: [r.origin.x, r.origin.y, r.size.width, r.size.height]) }

    /// The number of values.
    public var count: Int { values.count }
    /// The value at `index`, 0 beyond the end.
    public func value(at index: Int) -> CGFloat { index < values.count ? values[index] : 0 }
    /// First value.
    public var X: CGFloat { value(at: 0) }
    /// Second value.
    public var Y: CGFloat { value(at: 1) }
    /// Third value.
    public var Z: CGFloat { value(at: 2) }
    /// Fourth value.
    public var W: CGFloat { value(at: 3) }
    /// As a point.
    public var cgPointValue: CGPoint { CGPoint(x: X, y: Y) }
    /// As a rectangle.
    public var cgRectValue: CGRect { CGRect(x: X, y: Y, width: Z, height: W) }
    /// `"[x y …]"`.
    public var stringRepresentation: String { "[" + values.map { "\($0)" }.joined(separator: " ") + "]" }
    /// The string representation.
    public var description: String { stringRepresentation }

    var doubles: [Double] { values.map(Double.init) }
}
