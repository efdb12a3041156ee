/// Core Image's `CIPhotoEffectInstant`: "imitate vintage photography film with distorted colors".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 0.75; instant-film curves: lifted bluish blacks, warm yellowish highlights.
/// No parameters.
public struct PhotoEffectInstant: PhotoEffect {
    /// Core Image name `CIPhotoEffectInstant`.
    public static let descriptor = photoEffectDescriptor("Instant", summary: "Applies a preconfigured set of effects that imitate vintage photography film with distorted colors.")

    /// The look.
    public static let look = PhotoLook(saturation: 0.75, red: .init([[0, 0.1], [0.5, 0.55], [1, 0.96]]), green: .init([[0, 0.09], [0.5, 0.52], [1, 0.97]]), blue: .init([[0, 0.15], [0.5, 0.47], [1, 0.85]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
