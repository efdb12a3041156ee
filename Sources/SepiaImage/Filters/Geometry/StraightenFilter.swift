import Foundation

/// Rotates an image and enlarges it so that it still fills its frame: Core Image's `CIStraightenFilter`.
///
/// The image turns by `angle` radians about its centre (clockwise on screen for positive angles, since y points
/// down), is scaled up by the least factor that makes the rotated image cover the original rectangle, and is
/// cropped to the original extent: no transparent corners.
public struct StraightenFilter: Filter {
    /// Core Image name `CIStraightenFilter`.
    public static let descriptor = FilterDescriptor(
        name: "StraightenFilter", coreImageName: "CIStraightenFilter", displayName: "Straighten",
        categories: [.geometryAdjustment, .stillImage, .xmpSerializable, .builtIn],
        summary:
            "Rotates a source image by the specified angle in radians. The image is then scaled and cropped so that the rotated image fits the extent of the input image.",
        parameters: [
            .scalar("angle", kind: .angle, summary: "Rotation in radians.", default: 0, slider: -Double.pi...Double.pi, identity: 0)
        ])

    /// Rotation in radians.
    public var angle: Float

    /// Creates the filter.
    public init(angle: Float = 0) {
        self.angle = angle.isFinite ? angle : 0
    }

    /// The scale that makes a `w × h` rectangle rotated by `angle` cover the unrotated one.
    static func coverScale(width w: Double, height h: Double, angle: Double) -> Double {
        let c = abs(cos(angle)), s = abs(sin(angle))
        return max((w * c + h * s) / w, (w * s + h * c) / h)
    }

    /// Rotates, scales to cover, crops to the input extent.
    public func apply(to image: Image) -> Image {
        let e = image.extent
        if angle == 0 || e.isEmpty || e.isInfinite { return image }
        let theta = Double(angle)
        let k = Self.coverScale(width: Double(e.width), height: Double(e.height), angle: theta)
        let cx = Double(e.minX) + Double(e.width) / 2, cy = Double(e.minY) + Double(e.height) / 2
        let matrix = AffineMatrix(translationX: -cx, y: -cy)
            .concatenating(AffineMatrix(rotationAngle: theta))
            .concatenating(AffineMatrix(scaleX: k, y: k))
            .concatenating(AffineMatrix(translationX: cx, y: cy))
        // Clamped first, so samples near the frame read edge pixels rather than transparency.
        return image.clampedToExtent().transformed(by: matrix).cropped(to: e)
    }
}
