/// Core Image's `CIPhotoEffectTransfer`: "imitate vintage photography film with emphasized warm colors".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 1.1; red lifted, blue lowered in the highlights (warm).
/// No parameters.
public struct PhotoEffectTransfer: PhotoEffect {
    /// Core Image name `CIPhotoEffectTransfer`.
    public static let descriptor = photoEffectDescriptor(
        "Transfer", summary: "Applies a preconfigured set of effects that imitate vintage photography film with emphasized warm colors.")

    /// The look.
    public static let look = PhotoLook(
        saturation: 1.1, red: .init([[0, 0.03], [0.5, 0.57], [1, 1]]), green: .init([[0, 0.02], [0.5, 0.51], [1, 0.98]]),
        blue: .init([[0, 0], [0.5, 0.41], [1, 0.84]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
