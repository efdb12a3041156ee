/// What a file says about a photo besides its pixels: orientation, capture date, camera, lens, exposure,
/// location and colour profile. Damaged metadata fails soft: fields that cannot be read are nil and the
/// problem is listed in ``warnings``.
public struct ImageMetadata: Sendable, Hashable, Codable {
    /// The EXIF `Orientation` value as stored, if any (HEIF: informational only, the container's transforms
    /// are applied by the decoder).
    public var exifOrientation: Int?
    /// When the photo was taken: EXIF `DateTimeOriginal` (with `OffsetTimeOriginal`), else XMP or IPTC dates,
    /// else the GPS time, else EXIF `DateTime`.
    public var captureDate: CaptureDate?
    /// The GPS receiver's UTC time.
    public var gpsDate: CaptureDate?
    /// Camera maker.
    public var cameraMake: String?
    /// Camera model.
    public var cameraModel: String?
    /// Lens maker.
    public var lensMake: String?
    /// Lens model.
    public var lensModel: String?
    /// The software that wrote the file.
    public var software: String?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// Aperture (f-number).
    public var fNumber: Double?
    /// ISO sensitivity.
    public var iso: Int?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// Where the photo was taken.
    public var location: GPSLocation?
    /// The embedded colour profile's description, if any.
    public var colorProfile: String?
    /// The identifier a Live Photo's still shares with its movie (Apple's maker-note `ContentIdentifier`).
    public var contentIdentifier: String?
    /// Problems found while reading metadata; the image still decodes.
    public var warnings: [String]
    /// The XMP packet embedded in the file (JPEG's APP1, PNG's `iTXt`, WebP's and HEIF's XMP), as stored, for a
    /// reader of the properties this type does not hold (ratings, titles, keywords: `SepiaXMP`). Not encoded.
    public var embeddedXMP: [UInt8]?

    private enum CodingKeys: String, CodingKey {
        case exifOrientation, captureDate, gpsDate, cameraMake, cameraModel, lensMake, lensModel, software, exposureTime
        case fNumber, iso, focalLength, location, colorProfile, contentIdentifier, warnings
    }

    /// Creates empty metadata.
    public init() {
        warnings = []
    }

    /// Combines the metadata blocks of a file, the first available source winning for each field.
    package static func assemble(exif: [UInt8]?, xmp: [UInt8]?, photoshop: [UInt8]?) -> ImageMetadata {
        var m = ImageMetadata()
        var exifFields: EXIFFields?
        if let exif {
            let fields = EXIFParser.parse(exif)
            exifFields = fields
            m.warnings += fields.problems
            m.exifOrientation = fields.orientation
            m.cameraMake = fields.make
            m.cameraModel = fields.model
            m.software = fields.software
            m.lensMake = fields.lensMake
            m.lensModel = fields.lensModel
            m.exposureTime = fields.exposureTime
            m.fNumber = fields.fNumber
            m.iso = fields.iso
            m.focalLength = fields.focalLength
            m.location = fields.location
            m.gpsDate = fields.gpsDate
            m.captureDate = fields.captureDate
            m.contentIdentifier = fields.appleContentIdentifier
        }
        let xmpFields = xmp.map(XMPParser.parse)
        m.embeddedXMP = xmp
        let iptcDate = photoshop.flatMap(IPTCParser.captureDate(fromPhotoshopResources:))
        if m.captureDate == nil { m.captureDate = xmpFields?.captureDate }
        if m.captureDate == nil { m.captureDate = iptcDate }
        // A date without an offset takes the offset of another record of the same local time.
        if var date = m.captureDate, date.utcOffsetSeconds == nil {
            for other in [iptcDate, xmpFields?.captureDate].compactMap({ $0 }) where other.utcOffsetSeconds != nil {
                if (other.year, other.month, other.day, other.hour, other.minute, other.second)
                    == (date.year, date.month, date.day, date.hour, date.minute, date.second)
                {
                    date.utcOffsetSeconds = other.utcOffsetSeconds
                    m.captureDate = date
                    break
                }
            }
        }
        if m.gpsDate == nil { m.gpsDate = xmpFields?.gpsDate }
        if m.location == nil { m.location = xmpFields?.location }
        if m.captureDate == nil { m.captureDate = m.gpsDate }
        if m.captureDate == nil { m.captureDate = exifFields?.modificationDate }
        return m
    }
}
