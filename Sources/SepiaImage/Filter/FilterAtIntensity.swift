/// A filter at an intensity: its result mixed with the unfiltered image, `input + (filter(input) − input) · t`,
/// as Photos turns a look down. `PhotoEffectNoir().atIntensity(0.4)` is Noir at 40 %.
///
/// An intensity of 1 is the filter itself and 0 the unfiltered image. The mix is in the working space (linear
/// light); a filter that is a chain of per-pixel kernels keeping alpha is mixed pixel by pixel inside that
/// chain (a colour matrix becomes the matrix `I + (M − I) · t`), so it costs nothing more; any other filter's
/// result is mixed with its input in one more pass, on premultiplied pixels (Core Image's
/// `CIDissolveTransition`). Where the filter's result reaches beyond its input, the input counts as
/// transparent.
///
/// In an ``EditRecipe`` this is a step with an `intensity`.
public struct FilterAtIntensity<Base: Filter>: Filter {
    /// The filter's own descriptor: a filter at an intensity has the filter's parameters.
    public static var descriptor: FilterDescriptor { Base.descriptor }

    /// The filter.
    public var base: Base
    /// How much of the filter's result, 0…1.
    public var intensity: Float

    /// Creates the filter at `intensity`, clamped into 0…1 (not a number is 1).
    public init(_ base: Base, intensity: Float) {
        self.base = base
        self.intensity = intensity.isNaN ? 1 : min(max(intensity, 0), 1)
    }

    /// The base filter's constraints.
    public func validate() throws(FilterError) {
        try base.validate()
    }

    /// The filter's result mixed with `image`.
    public func apply(to image: Image) -> Image {
        if intensity >= 1 { return base.apply(to: image) }
        if intensity <= 0 || image.extent.isEmpty { return image }
        // Applied after a boundary, the kernels the filter adds stand apart from those before it.
        let marked = Image(recipe: BoundaryRecipe(input: image.recipe))
        let trial = base.apply(to: marked).recipe
        if trial === marked.recipe { return image }
        if let chain = trial as? PointRecipe, chain.input === marked.recipe,
            chain.kernels.allSatisfy(\.preservesAlpha)
        {
            if chain.kernels.count == 1, let matrix = chain.kernels[0].colorMatrix {
                return image.applyingColorMatrix(matrix.mixed(intensity))
            }
            return image.applyingPointKernel(MixedPointKernel(kernels: chain.kernels, amount: intensity))
        }
        let filtered = base.apply(to: image)
        return filtered.blending(with: image, kernel: MixBlendKernel(amount: intensity, inputIsOpaque: image.isOpaque))
    }
}

extension Filter {
    /// This filter at `intensity` (0…1): its result mixed with the unfiltered image.
    public func atIntensity(_ intensity: Float) -> FilterAtIntensity<Self> {
        FilterAtIntensity(self, intensity: intensity)
    }
}

extension Image {
    /// The image with `filter` applied at `intensity` (0…1): the result mixed with this image.
    public func applying(_ filter: some Filter, intensity: Float) -> Image {
        filter.atIntensity(intensity).apply(to: self)
    }
}

/// What ``EditRecipe`` needs of a ``FilterAtIntensity`` whose base type it does not know.
protocol IntensityAdjustedFilter {
    var baseFilter: any Filter { get }
    var stepIntensity: Double { get }
}

extension FilterAtIntensity: IntensityAdjustedFilter {
    var baseFilter: any Filter { base }
    var stepIntensity: Double { Double(intensity) }
}

extension ColorMatrix {
    /// The matrix mixed with the identity: `I + (self − I) · t`, bias `· t`.
    func mixed(_ t: Float) -> ColorMatrix {
        let identity = ColorMatrix.identity
        func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a + (b - a) * t }
        return ColorMatrix(
            rVector: mix(identity.rVector, rVector), gVector: mix(identity.gVector, gVector), bVector: mix(identity.bVector, bVector),
            aVector: mix(identity.aVector, aVector), biasVector: biasVector * t)
    }
}
