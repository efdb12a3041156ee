/// Core Image's `CIPhotoEffectMono`: "imitate black-and-white photography film with low contrast".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): grey: linear luminance, sRGB-encoded; one low-contrast curve (blacks lifted to 0.06, whites held to 0.94).
/// No parameters.
public struct PhotoEffectMono: PhotoEffect {
    /// Core Image name `CIPhotoEffectMono`.
    public static let descriptor = photoEffectDescriptor(
        "Mono", summary: "Applies a preconfigured set of effects that imitate black-and-white photography film with low contrast.")

    /// The look.
    public static let look = PhotoLook(monochrome: true, curve: .init([[0, 0.06], [0.25, 0.28], [0.5, 0.5], [0.75, 0.72], [1, 0.94]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
