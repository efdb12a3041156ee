/// What kind of photo or video an asset is, beyond its ``MediaType`` (PhotoKit's `PHAssetMediaSubtype`,
/// same raw values): a Live Photo, a high-frame-rate video, …
public struct MediaSubtypes: OptionSet, Sendable, Hashable, Codable {
    /// PhotoKit's bits.
    public let rawValue: Int

    /// The subtypes whose bits `rawValue` sets.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A panorama.
    public static let photoPanorama = MediaSubtypes(rawValue: 1 << 0)
    /// An HDR photo.
    public static let photoHDR = MediaSubtypes(rawValue: 1 << 1)
    /// A screenshot.
    public static let photoScreenshot = MediaSubtypes(rawValue: 1 << 2)
    /// A Live Photo: a still and a short movie (its ``AssetResourceType/pairedVideo`` resource) taken together.
    public static let photoLive = MediaSubtypes(rawValue: 1 << 3)
    /// A photo with depth data (portrait mode).
    public static let photoDepthEffect = MediaSubtypes(rawValue: 1 << 4)
    /// A RAW+JPEG pair: the camera's RAW file and its JPEG of the same shot, one asset that shows one of them
    /// (its ``AssetResourceType/photo``) and keeps the other (its ``AssetResourceType/alternatePhoto``). Sepia's
    /// own bit; PhotoKit tells such assets by their resources.
    public static let photoRAWPair = MediaSubtypes(rawValue: 1 << 28)
    /// A video streamed rather than stored.
    public static let videoStreamed = MediaSubtypes(rawValue: 1 << 16)
    /// A high-frame-rate (slow motion) video: more than 60 frames a second.
    public static let videoHighFrameRate = MediaSubtypes(rawValue: 1 << 17)
    /// A time-lapse video.
    public static let videoTimelapse = MediaSubtypes(rawValue: 1 << 18)
}

extension MediaSubtypes {
    /// The subtypes' names, PhotoKit's (`photoLive`, `videoHighFrameRate`, …), as the API and the CLI's JSON
    /// give them.
    public var names: [String] {
        let names: [(MediaSubtypes, String)] = [
            (.photoPanorama, "photoPanorama"), (.photoHDR, "photoHDR"), (.photoScreenshot, "photoScreenshot"), (.photoLive, "photoLive"),
            (.photoDepthEffect, "photoDepthEffect"), (.photoRAWPair, "photoRAWPair"), (.videoStreamed, "videoStreamed"),
            (.videoHighFrameRate, "videoHighFrameRate"),
            (.videoTimelapse, "videoTimelapse"),
        ]
        return names.filter { contains($0.0) }.map(\.1)
    }
}
