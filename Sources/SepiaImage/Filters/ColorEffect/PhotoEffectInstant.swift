/// Core Image's `CIPhotoEffectInstant`: "imitate vintage photography film with distorted colors".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 0.62; instant-film curves: lifted bluish blacks, warm yellowish highlights.
/// No parameters.
public struct PhotoEffectInstant: PhotoEffect {
    /// Core Image name `CIPhotoEffectInstant`.
    public static let descriptor = photoEffectDescriptor(
        "Instant", summary: "Applies a preconfigured set of effects that imitate vintage photography film with distorted colors.")

    /// The look.
    public static let look = PhotoLook(
        saturation: 0.62, red: .init([[0, 0.08], [0.5, 0.53], [1, 0.97]]), green: .init([[0, 0.07], [0.5, 0.51], [1, 0.97]]),
        blue: .init([[0, 0.11], [0.5, 0.47], [1, 0.88]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
