/// Core Image's `CIPhotoEffectChrome`: "imitate vintage photography film with exaggerated color".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 1.35; a gentle S-curve.
/// No parameters.
public struct PhotoEffectChrome: PhotoEffect {
    /// Core Image name `CIPhotoEffectChrome`.
    public static let descriptor = photoEffectDescriptor(
        "Chrome", summary: "Applies a preconfigured set of effects that imitate vintage photography film with exaggerated color.")

    /// The look.
    public static let look = PhotoLook(saturation: 1.35, curve: .init([[0, 0], [0.25, 0.21], [0.5, 0.5], [0.75, 0.79], [1, 1]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
