/// The recipe behind the `CIPhotoEffect` looks, which Apple does not publish: a fixed channel treatment on
/// sRGB-encoded colour followed by a tone curve per channel.
///
/// For a black-and-white look every channel gets the same grey: the linear-light luminance (Rec. 709),
/// sRGB-encoded. Otherwise the encoded colour is desaturated or saturated around its luma. Each tone curve
/// is a monotone cubic (Fritsch–Carlson) through a few control points, like a photo editor's curves panel; it
/// is sampled into a 1025-entry table that also decodes back to linear light, so a pixel costs three encodes,
/// a few multiply-adds and three table lookups.
public struct PhotoLook: Sendable, Hashable {
    /// A tone curve through `(input, output)` control points, both sRGB-encoded 0…1, inputs increasing.
    public struct Curve: Sendable, Hashable {
        /// The control points.
        public var points: [SIMD2<Float>]

        /// Creates a curve; the points must start at input 0 and end at input 1.
        public init(_ points: [SIMD2<Float>]) {
            self.points = points
        }

        /// The identity curve.
        public static let identity = Curve([[0, 0], [1, 1]])

        /// The curve's value at `x` (monotone cubic Hermite interpolation).
        public func value(at x: Float) -> Float {
            let p = points
            guard p.count >= 2 else { return x }
            if x <= p[0].x { return p[0].y }
            if x >= p[p.count - 1].x { return p[p.count - 1].y }
            let n = p.count
            var slopes = [Float](repeating: 0, count: n - 1)
            for i in 0..<(n - 1) { slopes[i] = (p[i + 1].y - p[i].y) / (p[i + 1].x - p[i].x) }
            var tangents = [Float](repeating: 0, count: n)
            tangents[0] = slopes[0]
            tangents[n - 1] = slopes[n - 2]
            for i in 1..<(n - 1) {
                tangents[i] = slopes[i - 1] * slopes[i] <= 0 ? 0 : (slopes[i - 1] + slopes[i]) / 2
            }
            for i in 0..<(n - 1) where slopes[i] != 0 {
                let a = tangents[i] / slopes[i], b = tangents[i + 1] / slopes[i]
                let s = a * a + b * b
                if s > 9 {
                    let t = 3 / s.squareRoot()
                    tangents[i] = t * a * slopes[i]
                    tangents[i + 1] = t * b * slopes[i]
                }
            }
            var k = 0
            while k < n - 2 && x > p[k + 1].x { k += 1 }
            let h = p[k + 1].x - p[k].x
            let t = (x - p[k].x) / h
            let t2 = t * t, t3 = t2 * t
            return (2 * t3 - 3 * t2 + 1) * p[k].y + (t3 - 2 * t2 + t) * h * tangents[k]
                + (-2 * t3 + 3 * t2) * p[k + 1].y + (t3 - t2) * h * tangents[k + 1]
        }
    }

    /// Whether the look is black and white.
    public var monochrome: Bool
    /// Saturation around the encoded luma (1 unchanged); ignored for black and white.
    public var saturation: Float
    /// Red, green and blue tone curves.
    public var curves: [Curve]

    /// Creates a look.
    public init(monochrome: Bool = false, saturation: Float = 1, red: Curve, green: Curve, blue: Curve) {
        self.monochrome = monochrome
        self.saturation = saturation
        curves = [red, green, blue]
    }

    /// A look with one curve for all channels.
    public init(monochrome: Bool = false, saturation: Float = 1, curve: Curve) {
        self.init(monochrome: monochrome, saturation: saturation, red: curve, green: curve, blue: curve)
    }

    /// Applies the look to an unpremultiplied linear pixel (the exact curves; renders use ``Tables``).
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        let encoded = treat(pixel)
        return SIMD4(
            SRGB.toLinear(curves[0].value(at: encoded.x)), SRGB.toLinear(curves[1].value(at: encoded.y)),
            SRGB.toLinear(curves[2].value(at: encoded.z)), pixel[3])
    }

    /// The encoded values the curves read.
    @inline(__always)
    func treat(_ pixel: SIMD4<Float>) -> SIMD3<Float> {
        if monochrome {
            let y = 0.2126 * pixel[0] + 0.7152 * pixel[1] + 0.0722 * pixel[2]
            let g = TransferCurve.encode(y)
            return SIMD3(repeating: g)
        }
        let e = TransferCurve.encode(pixel)
        let rgb = SIMD3(e[0], e[1], e[2])
        if saturation == 1 { return rgb }
        let l = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
        return SIMD3(repeating: l) + (rgb - SIMD3(repeating: l)) * saturation
    }

    /// The curves sampled into tables that output linear light. Build once per look.
    ///
    /// Sendable: written once in init, read-only afterwards.
    public final class Tables: @unchecked Sendable {
        static let size = 1024
        /// The look the tables sample.
        public let look: PhotoLook
        private let values: UnsafeMutablePointer<Float>

        /// Samples `look`.
        public init(_ look: PhotoLook) {
            self.look = look
            values = .allocate(capacity: 3 * (Self.size + 2))
            for c in 0..<3 {
                for i in 0...(Self.size + 1) {
                    let x = min(1, Float(i) / Float(Self.size))
                    values[c * (Self.size + 2) + i] = SRGB.toLinear(min(max(look.curves[c].value(at: x), 0), 1))
                }
            }
        }

        deinit {
            values.deallocate()
        }

        @inline(__always)
        private func lookup(_ c: Int, _ v: Float) -> Float {
            let table = values + c * (Self.size + 2)
            let x = min(max(v.isNaN ? 0 : v, 0), 1) * Float(Self.size)
            let i = Int(x)
            let f = x - Float(i)
            return table[i] + (table[i + 1] - table[i]) * f
        }

        /// Applies the look to an unpremultiplied linear pixel.
        @inline(__always)
        public func apply(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
            let e = look.treat(pixel)
            return SIMD4(lookup(0, e.x), lookup(1, e.y), lookup(2, e.z), pixel[3])
        }
    }
}

/// Runs a look's tables over runs of pixels.
struct LookKernel: PointKernel {
    let tables: PhotoLook.Tables

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        for i in 0..<count { pixels[i] = tables.apply(pixels[i]) }
    }
}

/// The shared shape of the eight `CIPhotoEffect` filters: no parameters, one fixed look.
public protocol PhotoEffect: PointFilter {
    /// The look.
    static var look: PhotoLook { get }
    /// The look's tables, built once.
    static var tables: PhotoLook.Tables { get }
}

extension PhotoEffect {
    /// Applies the look to one pixel.
    public func apply(to pixel: SIMD4<Float>) -> SIMD4<Float> {
        Self.tables.apply(pixel)
    }

    /// Appends the look's table kernel.
    public func apply(to image: Image) -> Image {
        image.applyingPointKernel(LookKernel(tables: Self.tables))
    }

    /// The descriptor all photo effects share, but for their names.
    static func photoEffectDescriptor(_ name: String, summary: String) -> FilterDescriptor {
        FilterDescriptor(
            name: "PhotoEffect\(name)", coreImageName: "CIPhotoEffect\(name)", displayName: "Photo Effect \(name)",
            categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn], summary: summary, parameters: [])
    }
}
