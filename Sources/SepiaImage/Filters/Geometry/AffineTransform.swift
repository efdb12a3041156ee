/// Transforms an image by an affine matrix: Core Image's `CIAffineTransform`.
///
/// The output extent is the bounding box of the transformed input extent. Rotations and shears are sampled
/// with a Catmull-Rom bicubic filter widened by the reduction factor; pure scales and translations go through
/// the Lanczos-3 resampler. Coordinates have their origin at the top-left, y down.
public struct AffineTransform: Filter {
    /// Core Image name `CIAffineTransform`.
    public static let descriptor = FilterDescriptor(
        name: "AffineTransform", coreImageName: "CIAffineTransform", displayName: "Affine Transform",
        categories: [.geometryAdjustment, .stillImage, .builtIn],
        summary: "Applies an affine transform to an image.",
        parameters: [
            FilterParameter(
                key: "transform", kind: .transform, summary: "a, b, c, d, tx, ty (Core Graphics order).",
                defaultValue: .vector([1, 0, 0, 1, 0, 0]), identity: .vector([1, 0, 0, 1, 0, 0]))
        ])

    /// The matrix.
    public var transform: AffineMatrix

    /// Creates the filter; a matrix that is not invertible or not finite becomes the identity.
    public init(transform: AffineMatrix = .identity) {
        let finite = transform.entries.allSatisfy(\.isFinite)
        self.transform = finite && transform.inverted != nil ? transform : .identity
    }

    /// The matrix must be finite and invertible.
    public func validate() throws(FilterError) {
        guard transform.entries.allSatisfy(\.isFinite) else { throw .notFinite(filter: "CIAffineTransform", key: "transform") }
        guard transform.inverted != nil else {
            throw .wrongType(filter: "CIAffineTransform", key: "transform", expected: "an invertible matrix", value: "\(transform.entries)")
        }
    }

    /// The transformed image.
    public func apply(to image: Image) -> Image {
        image.transformed(by: transform)
    }
}
