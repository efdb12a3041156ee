/// Core Image's `CIPhotoEffectFade`: "imitate vintage photography film with diminished color".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 0.6; one faded curve: blacks lifted to 0.12, whites lowered to 0.9, less contrast.
/// No parameters.
public struct PhotoEffectFade: PhotoEffect {
    /// Core Image name `CIPhotoEffectFade`.
    public static let descriptor = photoEffectDescriptor(
        "Fade", summary: "Applies a preconfigured set of effects that imitate vintage photography film with diminished color.")

    /// The look.
    public static let look = PhotoLook(saturation: 0.6, curve: .init([[0, 0.12], [0.25, 0.32], [0.5, 0.53], [0.75, 0.73], [1, 0.9]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
