/// Core Image's `CIPhotoEffectProcess`: "imitate vintage photography film with emphasized cool colors".
///
/// Apple publishes no data for this look; Sepia's recipe (a ``PhotoLook``): saturation 0.85; lower contrast; red pulled down, blue lifted (cool).
/// No parameters.
public struct PhotoEffectProcess: PhotoEffect {
    /// Core Image name `CIPhotoEffectProcess`.
    public static let descriptor = photoEffectDescriptor(
        "Process", summary: "Applies a preconfigured set of effects that imitate vintage photography film with emphasized cool colors.")

    /// The look.
    public static let look = PhotoLook(
        saturation: 0.85, red: .init([[0, 0.02], [0.5, 0.45], [1, 0.93]]), green: .init([[0, 0.05], [0.5, 0.5], [1, 0.96]]),
        blue: .init([[0, 0.13], [0.5, 0.58], [1, 1]]))

    /// The look's tables.
    public static let tables = PhotoLook.Tables(look)

    /// Creates the filter.
    public init() {}
}
