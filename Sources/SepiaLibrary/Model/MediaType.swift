/// What an asset holds (PhotoKit's `PHAssetMediaType`, same raw values).
public enum MediaType: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// A still photo.
    case image = 1
    /// A video (not imported by this version).
    case video = 2
    /// Audio (not imported by this version).
    case audio = 3
}
