public import SepiaCodecs

/// How ``ImageManager`` delivers an image (PhotoKit's `PHImageRequestOptions`).
public struct ImageRequestOptions: Sendable, Hashable {
    /// Quality against speed.
    public enum DeliveryMode: String, Sendable, Hashable, CaseIterable {
        /// A quick, possibly smaller image first when the final one is not ready, then the final one: the
        /// result stream may yield twice (PhotoKit's default).
        case opportunistic
        /// One result, at the requested quality.
        case highQualityFormat
        /// One result, as fast as possible: a cached image even if it is smaller than asked.
        case fastFormat
    }

    /// How closely the result matches the target size.
    public enum ResizeMode: String, Sendable, Hashable, CaseIterable {
        /// The full-size image, ignoring the target size.
        case none
        /// At least the target size where the image is that large, possibly somewhat larger: served from the
        /// stored preview or thumbnail when one is large enough.
        case fast
        /// Exactly the size the content mode gives for the target.
        case exact
    }

    /// Which version of the asset.
    public enum Version: String, Sendable, Hashable, CaseIterable {
        /// With its current edit.
        case current
        /// The original, ignoring edits.
        case original
    }

    /// Quality against speed (default opportunistic).
    public var deliveryMode: DeliveryMode
    /// How closely to match the size (default fast).
    public var resizeMode: ResizeMode
    /// Which version (default current).
    public var version: Version
    /// The encoding of the image: JPEG (the default; what the stored thumbnails and previews are) or WebP,
    /// rendered for the request.
    public var format: ImageFormat

    /// Options.
    public init(
        deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .fast, version: Version = .current, format: ImageFormat = .jpeg
    ) {
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.version = version
        self.format = format == .webp ? .webp : .jpeg
    }
}

/// One image ``ImageManager`` delivers.
public struct ImageResult: Sendable {
    /// The image.
    public let rendition: Rendition
    /// A low-quality stand-in, with a better image to follow (PhotoKit's `PHImageResultIsDegradedKey`).
    public let isDegraded: Bool
    /// Where it came from.
    public let origin: Origin

    /// Where a result came from.
    public enum Origin: String, Sendable, Hashable {
        /// The memory cache.
        case memory
        /// The disk cache.
        case disk
        /// Rendered for this request.
        case rendered
    }
}
