/// Core Image's `CIPhotoEffectNoir`: "imitate black-and-white photography film with exaggerated contrast".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): grey: linear luminance, sRGB-encoded; a strong S-curve (shadows crushed, highlights pushed).
/// No parameters.
public struct PhotoEffectNoir: PhotoEffect {
    /// Core Image name `CIPhotoEffectNoir`.
    public static let descriptor = photoEffectDescriptor(
        "Noir", summary: "Applies a preconfigured set of effects that imitate black-and-white photography film with exaggerated contrast.")

    /// The look.
    public static let look = PhotoLook(
        monochrome: true, curve: .init([[0, 0], [0.15, 0.03], [0.35, 0.2], [0.5, 0.44], [0.65, 0.7], [0.85, 0.95], [1, 1]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
