/// Where an asset's creation date came from, most trustworthy first.
public enum CreationDateSource: String, Sendable, Hashable, Codable {
    /// EXIF `DateTimeOriginal` (or its XMP/IPTC equivalents), the moment the shutter was pressed.
    case capture
    /// EXIF `DateTimeDigitized`.
    case digitized
    /// The GPS receiver's UTC timestamp.
    case gps
    /// EXIF `DateTime`, the last time software changed the file.
    case modified
    /// The file's modification time: the photo carries no usable date (none, or `0000:00:00 00:00:00`).
    case file
    /// Set explicitly through a change request.
    case user
}
