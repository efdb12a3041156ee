import Foundation
import SepiaCodecs
import SepiaCommandLine
import SepiaLibrary
import SepiaPlaces

/// An asset as the command line prints it in JSON.
struct AssetJSON: Encodable {
    let id: String
    let filename: String
    let width: Int
    let height: Int
    let creationDate: String
    let creationDateSource: String
    let addedDate: String
    let modificationDate: String
    let isFavorite: Bool
    let isHidden: Bool
    let hasAdjustments: Bool
    let currentAdjustmentID: String?
    let format: String
    let byteCount: Int
    let contentHash: String
    let cameraMake: String?
    let cameraModel: String?
    let latitude: Double?
    let longitude: Double?
    let revision: Int
    let mediaType: String
    let mediaSubtypes: [String]
    let duration: Double?
    let title: String?
    let caption: String?
    let keywords: [String]
    let rating: Int
    let altitude: Double?
    let creationDateEdited: Bool
    let locationEdited: Bool
    /// The date, its source and the location the original file carries.
    let file: FileValues?

    struct FileValues: Encodable {
        let creationDate: String
        let creationDateSource: String
        let latitude: Double?
        let longitude: Double?
        let altitude: Double?
    }
    /// When it was deleted, for a photo in Recently Deleted (absent otherwise).
    let trashedDate: String?
    /// The days it has left in Recently Deleted (absent otherwise).
    let daysLeft: Int?
    /// The city, region and country nearest its location (absent when it has none or it was not asked for).
    let place: PlaceJSON?

    struct PlaceJSON: Encodable {
        let id: Int
        let city: String
        let region: String?
        let country: String
        let countryCode: String
    }

    /// The asset; `daysLeft` for one in Recently Deleted, as the library counts them; `place`, its place.
    init(_ asset: Asset, daysLeft: Int? = nil, place: Place? = nil) {
        self.place = place.map { PlaceJSON(id: $0.id, city: $0.city, region: $0.region, country: $0.country, countryCode: $0.countryCode) }
        id = asset.id
        filename = asset.originalFilename
        width = asset.pixelWidth
        height = asset.pixelHeight
        creationDate = AssetFormatting.isoDate(asset.creationDate, offset: asset.creationDateOffset)
        creationDateSource = asset.creationDateSource.rawValue
        addedDate = AssetFormatting.isoDate(asset.addedDate, offset: 0)
        modificationDate = AssetFormatting.isoDate(asset.modificationDate, offset: 0)
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        hasAdjustments = asset.hasAdjustments
        currentAdjustmentID = asset.currentAdjustmentID
        format = asset.originalFormat.rawValue
        byteCount = asset.originalByteCount
        contentHash = asset.contentHash
        cameraMake = asset.cameraMake
        cameraModel = asset.cameraModel
        latitude = asset.location?.latitude
        longitude = asset.location?.longitude
        revision = asset.revision
        mediaType = asset.mediaType == .video ? "video" : asset.mediaType == .audio ? "audio" : "image"
        mediaSubtypes = asset.mediaSubtypes.names
        duration = asset.mediaKind.isMovie ? asset.duration : nil
        title = asset.title
        caption = asset.caption
        keywords = asset.keywords
        rating = asset.rating
        altitude = asset.location?.altitude
        creationDateEdited = asset.isCreationDateEdited
        locationEdited = asset.isLocationEdited
        file = asset.fileMetadata.map { file in
            FileValues(
                creationDate: AssetFormatting.isoDate(file.creationDate, offset: file.creationDateOffset),
                creationDateSource: file.creationDateSource.rawValue, latitude: file.location?.latitude,
                longitude: file.location?.longitude, altitude: file.location?.altitude)
        }
        trashedDate = asset.trashedDate.map { AssetFormatting.isoDate($0, offset: 0) }
        self.daysLeft = daysLeft
    }
}

/// How assets read for people.
enum AssetFormatting {
    /// `2012-09-29T16:11:25+02:00` (no offset when unknown).
    static func isoDate(_ date: Date, offset: Int?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offset ?? 0)
        formatter.dateFormat = offset == nil ? "yyyy-MM-dd'T'HH:mm:ss" : "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date)
    }

    /// `2012-09-29 16:11`, the time where the photo was taken.
    static func shortDate(_ asset: Asset) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: asset.creationDateOffset ?? 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: asset.creationDate)
    }

    /// One line: short id, date, size, flags, name, camera.
    static func line(_ asset: Asset) -> String {
        let kind = asset.mediaKind == .video ? "V" : asset.mediaKind == .livePhoto ? "L" : " "
        let flags = (asset.isFavorite ? "★" : " ") + (asset.hasAdjustments ? "E" : " ") + (asset.isHidden ? "H" : " ") + kind
        let size = "\(asset.pixelWidth)x\(asset.pixelHeight)"
        var camera = [asset.cameraMake, asset.cameraModel].compactMap { $0 }.joined(separator: " ")
        if asset.mediaKind.isMovie {
            let seconds = Int(asset.duration.rounded())
            camera = String(format: "%d:%02d", seconds / 60, seconds % 60) + (camera.isEmpty ? "" : ", " + camera)
        }
        return "\(asset.id.prefix(8))  \(shortDate(asset))  \(size.padding(toLength: 10, withPad: " ", startingAt: 0)) \(flags)  "
            + asset.originalFilename + (camera.isEmpty ? "" : "  (\(camera))")
    }
}
