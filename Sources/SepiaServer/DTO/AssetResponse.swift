import Foundation
import Hummingbird
import SepiaCodecs
import SepiaLibrary
import SepiaPlaces
import SepiaRAW

/// An asset as the API shows it: PhotoKit's `PHAsset` in JSON.
struct AssetResponse: ResponseEncodable {
    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    /// What `GET /assets/{id}` reads from the original's header.
    struct Metadata: Encodable {
        var lensMake: String?
        var lensModel: String?
        var exposureTime: Double?
        var fNumber: Double?
        var iso: Int?
        var focalLength: Double?
        var software: String?
        var colorProfile: String?
    }

    /// The city, region and country nearest the location (``PhotoLibrary/place(of:)``).
    struct PlaceName: Encodable {
        var id: Int
        var city: String
        var region: String?
        var country: String
        var countryCode: String

        init(_ place: Place) {
            (id, city, region, country, countryCode) = (place.id, place.city, place.region, place.country, place.countryCode)
        }

        enum CodingKeys: String, CodingKey { case id, city, region, country, countryCode }

        /// Every key, `region` as null when GeoNames names none.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(city, forKey: .city)
            try c.encode(region, forKey: .region)
            try c.encode(country, forKey: .country)
            try c.encode(countryCode, forKey: .countryCode)
        }
    }

    let asset: Asset
    var metadata: Metadata?
    /// The days the asset has left in Recently Deleted; nil when it is not there.
    let daysLeft: Int?
    /// Where it was taken, by name.
    let place: Place?

    /// The asset as `library` has it (its days left in Recently Deleted follow the library's retention).
    init(_ asset: Asset, metadata: Metadata? = nil, in library: PhotoLibrary) {
        self.asset = asset
        self.metadata = metadata
        daysLeft = library.daysLeftInRecentlyDeleted(asset)
        // Names come from a cache of the few hundred places a library has; a database that fails here fails
        // the request's next read as well.
        place = try? library.place(of: asset)
    }

    enum CodingKeys: String, CodingKey {
        case id, mediaType, width, height, creationDate, creationDateOffset, creationDateSource, modificationDate, addedDate
        case isFavorite, isHidden, hasAdjustments, version, revision, originalFilename, originalFormat, originalByteCount
        case originalWidth, originalHeight, cameraMake, cameraModel, location, place, metadata, mediaSubtypes, duration, trashedDate, daysLeft
    }

    /// The names the API gives media subtypes.
    static func subtypeNames(_ subtypes: MediaSubtypes) -> [String] { subtypes.names }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(asset.id, forKey: .id)
        let mediaType =
            switch asset.mediaType {
            case .image: "image"
            case .video: "video"
            case .audio: "audio"
            case .unknown: "unknown"
            }
        try c.encode(mediaType, forKey: .mediaType)
        try c.encode(Self.subtypeNames(asset.mediaSubtypes), forKey: .mediaSubtypes)
        try c.encode(asset.duration, forKey: .duration)
        try c.encode(asset.pixelWidth, forKey: .width)
        try c.encode(asset.pixelHeight, forKey: .height)
        try c.encode(asset.creationDate, forKey: .creationDate)
        try c.encode(asset.creationDateOffset, forKey: .creationDateOffset)
        try c.encode(asset.creationDateSource.rawValue, forKey: .creationDateSource)
        try c.encode(asset.modificationDate, forKey: .modificationDate)
        try c.encode(asset.addedDate, forKey: .addedDate)
        try c.encode(asset.isFavorite, forKey: .isFavorite)
        try c.encode(asset.isHidden, forKey: .isHidden)
        try c.encode(asset.hasAdjustments, forKey: .hasAdjustments)
        try c.encode(asset.contentVersion, forKey: .version)
        try c.encode(asset.revision, forKey: .revision)
        try c.encode(asset.originalFilename, forKey: .originalFilename)
        try c.encode(asset.originalFormat.rawValue, forKey: .originalFormat)
        try c.encode(asset.originalByteCount, forKey: .originalByteCount)
        try c.encode(asset.originalWidth, forKey: .originalWidth)
        try c.encode(asset.originalHeight, forKey: .originalHeight)
        try c.encode(asset.cameraMake, forKey: .cameraMake)
        try c.encode(asset.cameraModel, forKey: .cameraModel)
        try c.encode(
            asset.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) }, forKey: .location)
        try c.encode(place.map(PlaceName.init), forKey: .place)
        try c.encode(asset.trashedDate, forKey: .trashedDate)
        try c.encode(daysLeft, forKey: .daysLeft)
        try c.encodeIfPresent(metadata, forKey: .metadata)
        try encodeMetadata(to: encoder)
    }

    /// The header metadata of `asset`'s original.
    static func metadata(of asset: Asset, in library: PhotoLibrary) async -> Metadata? {
        guard let path = try? await library.originalPath(of: asset), let file = try? PhotoDecoding.open(path: path) else { return nil }
        let m = file.metadata
        return Metadata(
            lensMake: m.lensMake, lensModel: m.lensModel, exposureTime: m.exposureTime, fNumber: m.fNumber, iso: m.iso,
            focalLength: m.focalLength, software: m.software, colorProfile: m.colorProfile)
    }
}

/// A page of assets.
struct AssetPageResponse: ResponseEncodable {
    var assets: [AssetResponse]
    var nextCursor: String?
    var total: Int

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(assets, forKey: .assets)
        try c.encode(nextCursor, forKey: .nextCursor)
        try c.encode(total, forKey: .total)
    }

    enum CodingKeys: String, CodingKey { case assets, nextCursor, total }
}

/// An album as the API shows it.
struct AlbumResponse: ResponseEncodable {
    var id: String
    var title: String
    var kind: String
    var assetCount: Int
    var creationDate: Date
    var revision: Int
    var isEditable: Bool
    var coverAssetID: String?

    init(_ album: Album, cover: String?) {
        id = album.id
        title = album.title
        kind = album.isEditable ? "regular" : "smart"
        assetCount = album.assetCount
        creationDate = album.creationDate
        revision = album.revision
        isEditable = album.isEditable
        coverAssetID = cover
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(kind, forKey: .kind)
        try c.encode(assetCount, forKey: .assetCount)
        try c.encode(creationDate, forKey: .creationDate)
        try c.encode(revision, forKey: .revision)
        try c.encode(isEditable, forKey: .isEditable)
        try c.encode(coverAssetID, forKey: .coverAssetID)
    }

    enum CodingKeys: String, CodingKey { case id, title, kind, assetCount, creationDate, revision, isEditable, coverAssetID }
}
