/// Core Image's `CIPhotoEffectTonal`: "imitate black-and-white photography film without significantly altering contrast".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): grey: linear luminance, sRGB-encoded; a nearly straight curve.
/// No parameters.
public struct PhotoEffectTonal: PhotoEffect {
    /// Core Image name `CIPhotoEffectTonal`.
    public static let descriptor = photoEffectDescriptor(
        "Tonal",
        summary: "Applies a preconfigured set of effects that imitate black-and-white photography film without significantly altering contrast.")

    /// The look.
    public static let look = PhotoLook(monochrome: true, curve: .init([[0, 0.02], [0.5, 0.5], [1, 0.98]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
