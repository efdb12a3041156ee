/// Multiplies each pixel by a 4×4 matrix and adds a bias: Core Image's `CIColorMatrix`, and the affine
/// colour transform the engine folds other colour filters into.
///
/// `out = (dot(rVector, in), dot(gVector, in), dot(bVector, in), dot(aVector, in)) + biasVector`, on
/// unpremultiplied linear RGBA. The default (identity rows, zero bias) leaves the image unchanged.
public struct ColorMatrix: PointFilter {
    /// Core Image name `CIColorMatrix`; five vector parameters.
    public static let descriptor = FilterDescriptor(
        name: "ColorMatrix", coreImageName: "CIColorMatrix", displayName: "Color Matrix",
        categories: [.colorAdjustment, .stillImage, .builtIn],
        summary: "Multiplies source colour values by a matrix and adds a bias vector.",
        parameters: [
            FilterParameter(
                key: "rVector", coreImageKey: "inputRVector", kind: .vector, displayName: "Red Vector",
                summary: "The amount of red, green, blue and alpha that makes the output red.",
                defaultValue: .vector([1, 0, 0, 0]), identity: .vector([1, 0, 0, 0])),
            FilterParameter(
                key: "gVector", coreImageKey: "inputGVector", kind: .vector, displayName: "Green Vector",
                summary: "The amount of each input channel that makes the output green.",
                defaultValue: .vector([0, 1, 0, 0]), identity: .vector([0, 1, 0, 0])),
            FilterParameter(
                key: "bVector", coreImageKey: "inputBVector", kind: .vector, displayName: "Blue Vector",
                summary: "The amount of each input channel that makes the output blue.",
                defaultValue: .vector([0, 0, 1, 0]), identity: .vector([0, 0, 1, 0])),
            FilterParameter(
                key: "aVector", coreImageKey: "inputAVector", kind: .vector, displayName: "Alpha Vector",
                summary: "The amount of each input channel that makes the output alpha.",
                defaultValue: .vector([0, 0, 0, 1]), identity: .vector([0, 0, 0, 1])),
            FilterParameter(
                key: "biasVector", coreImageKey: "inputBiasVector", kind: .vector, displayName: "Bias Vector",
                summary: "Added to each output channel.",
                defaultValue: .vector([0, 0, 0, 0]), identity: .vector([0, 0, 0, 0])),
        ])

    /// Row producing red.
    public var rVector: SIMD4<Float>
    /// Row producing green.
    public var gVector: SIMD4<Float>
    /// Row producing blue.
    public var bVector: SIMD4<Float>
    /// Row producing alpha.
    public var aVector: SIMD4<Float>
    /// Added after the product.
    public var biasVector: SIMD4<Float>

    /// Creates a matrix from its rows and bias; the defaults are the identity.
    public init(
        rVector: SIMD4<Float> = [1, 0, 0, 0], gVector: SIMD4<Float> = [0, 1, 0, 0], bVector: SIMD4<Float> = [0, 0, 1, 0],
        aVector: SIMD4<Float> = [0, 0, 0, 1], biasVector: SIMD4<Float> = .zero
    ) {
        self.rVector = rVector
        self.gVector = gVector
        self.bVector = bVector
        self.aVector = aVector
        self.biasVector = biasVector
    }

    /// The identity.
    public static let identity = ColorMatrix()

    /// A matrix acting on colour only: `rgb' = rows · rgb + bias`, alpha unchanged.
    public init(rgb rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), bias: SIMD3<Float> = .zero) {
        self.init(
            rVector: SIMD4(rows.0, 0), gVector: SIMD4(rows.1, 0), bVector: SIMD4(rows.2, 0), aVector: [0, 0, 0, 1],
            biasVector: SIMD4(bias, 0))
    }

    /// The filter is its own matrix.
    public var colorMatrix: ColorMatrix? { self }

    /// Whether alpha passes through unchanged.
    public var preservesAlpha: Bool { aVector == [0, 0, 0, 1] && biasVector[3] == 0 }

    /// Applies the matrix to one unpremultiplied pixel.
    @inlinable
    public func apply(to p: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4((rVector * p).sum(), (gVector * p).sum(), (bVector * p).sum(), (aVector * p).sum()) + biasVector
    }

    /// The transform that applies `self` first and then `next`.
    public func followed(by next: ColorMatrix) -> ColorMatrix {
        func row(_ v: SIMD4<Float>) -> SIMD4<Float> {
            rVector * v[0] + gVector * v[1] + bVector * v[2] + aVector * v[3]
        }
        return ColorMatrix(
            rVector: row(next.rVector), gVector: row(next.gVector), bVector: row(next.bVector),
            aVector: row(next.aVector), biasVector: next.apply(to: biasVector))
    }

    /// Linear interpolation between the identity (t = 0) and this matrix (t = 1).
    public func mixedWithIdentity(_ t: Float) -> ColorMatrix {
        let i = ColorMatrix.identity
        return ColorMatrix(
            rVector: i.rVector + (rVector - i.rVector) * t, gVector: i.gVector + (gVector - i.gVector) * t,
            bVector: i.bVector + (bVector - i.bVector) * t, aVector: i.aVector + (aVector - i.aVector) * t,
            biasVector: biasVector * t)
    }

    /// The columns, for evaluation by fused multiply-adds.
    var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (
            SIMD4(rVector[0], gVector[0], bVector[0], aVector[0]), SIMD4(rVector[1], gVector[1], bVector[1], aVector[1]),
            SIMD4(rVector[2], gVector[2], bVector[2], aVector[2]), SIMD4(rVector[3], gVector[3], bVector[3], aVector[3])
        )
    }
}
