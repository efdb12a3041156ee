/// Darkens (or lightens) the corners: Core Image's `CIVignette`.
///
/// With `d` the distance from the image centre divided by half the diagonal (0 at the centre, 1 in the
/// corners), `amount = intensity · smoothstep(radius/2 − 0.5, radius/2 + 0.5, d)`. A positive amount scales the
/// linear-light colour by `1 − amount` (light falloff); a negative amount mixes towards white. `intensity`
/// −1…1 (0 is the identity), `radius` 0…2: larger radii keep more of the centre clear.
public struct Vignette: Filter {
    /// Core Image name `CIVignette`.
    public static let descriptor = FilterDescriptor(
        name: "Vignette", coreImageName: "CIVignette", displayName: "Vignette",
        categories: [.colorEffect, .stillImage, .xmpSerializable, .builtIn],
        summary: "Applies a vignette shading to the corners of an image.",
        parameters: [
            .scalar(
                "intensity", summary: "Positive darkens the corners, negative lightens them.", default: 0, minimum: -1, maximum: 1, slider: -1...1,
                identity: 0),
            .scalar("radius", summary: "Size of the clear centre, relative to the image.", default: 1, minimum: 0, maximum: 2, slider: 0...2),
        ])

    /// Strength, −1…1.
    public var intensity: Float
    /// Relative radius, 0…2.
    public var radius: Float

    /// Creates the filter; values are clamped to their ranges.
    public init(intensity: Float = 0, radius: Float = 1) {
        self.intensity = min(max(intensity.isFinite ? intensity : 0, -1), 1)
        self.radius = min(max(radius.isFinite ? radius : 1, 0), 2)
    }

    /// Shades around the extent's centre.
    public func apply(to image: Image) -> Image {
        let e = image.extent
        if intensity == 0 || e.isEmpty || e.isInfinite { return image }
        let centre = SIMD2(Float(e.minX) + Float(e.width) / 2, Float(e.minY) + Float(e.height) / 2)
        let halfDiagonal = (Float(e.width * e.width + e.height * e.height)).squareRoot() / 2
        return image.applyingPointKernel(
            RadialShadeKernel(
                centre: centre, scale: 1 / halfDiagonal, inner: radius / 2 - 0.5, outer: radius / 2 + 0.5, intensity: intensity))
    }
}

/// Radial shading shared by the vignettes: `amount = intensity · smoothstep(inner, outer, |p − centre| · scale)`.
struct RadialShadeKernel: PointKernel {
    let centre: SIMD2<Float>
    let scale: Float
    let inner: Float
    let outer: Float
    let intensity: Float

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    @inline(__always)
    func amount(atX x: Float, y: Float) -> Float {
        let dx = x - centre.x, dy = y - centre.y
        let d = (dx * dx + dy * dy).squareRoot() * scale
        let t: Float
        if outer <= inner {
            t = d < inner ? 0 : 1
        } else {
            let u = min(max((d - inner) / (outer - inner), 0), 1)
            t = u * u * (3 - 2 * u)
        }
        return intensity * t
    }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        let py = Float(y) + 0.5
        for i in 0..<count {
            let a = amount(atX: Float(x + i) + 0.5, y: py)
            let p = pixels[i]
            if a >= 0 {
                pixels[i] = SIMD4(p[0] * (1 - a), p[1] * (1 - a), p[2] * (1 - a), p[3])
            } else {
                let w = -a
                pixels[i] = SIMD4(p[0] + (1 - p[0]) * w, p[1] + (1 - p[1]) * w, p[2] + (1 - p[2]) * w, p[3])
            }
        }
    }
}
