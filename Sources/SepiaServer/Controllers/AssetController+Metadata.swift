import Foundation
import Hummingbird
import SepiaCodecs
import SepiaLibrary

/// The metadata fields of `PATCH /assets/{id}` and `PATCH /assets` (Photos' Info panel and Adjust Date & Time).
/// A field left out is left alone; `null` clears a title, caption, keywords, rating or location. The capture
/// date is ISO 8601 text whose zone is the photo's time zone (none: unknown); `revert` gives back the file's
/// own date or location. Only the batch route shifts dates.
struct MetadataPatch: Decodable {
    /// A field that may be absent, null or a value.
    enum Field<Value> {
        case absent
        case null
        case value(Value)

        var isPresent: Bool {
            if case .absent = self { return false }
            return true
        }
    }

    struct LocationBody: Decodable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    struct Shift: Decodable {
        /// Seconds to move each photo's local date and time by.
        var seconds: Double
        /// The time zone the shifted times are read in (`+09:00`); absent: each keeps its own.
        var timeZone: String?
    }

    enum Revertible: String, Decodable {
        case creationDate, location
    }

    var title: Field<String> = .absent
    var caption: Field<String> = .absent
    var keywords: Field<[String]> = .absent
    var addKeywords: [String]?
    var removeKeywords: [String]?
    var rating: Field<Int> = .absent
    var creationDate: Field<String> = .absent
    var location: Field<LocationBody> = .absent
    var revert: [Revertible]?
    var shiftCreationDate: Shift?

    enum CodingKeys: String, CodingKey {
        case title, caption, keywords, addKeywords, removeKeywords, rating, creationDate, location, revert, shiftCreationDate
    }

    /// The most keywords one list in a request may have (the library keeps at most as many per photo).
    static let maximumKeywordsPerList = UserMetadata.maximumKeywordCount

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func field<T: Decodable>(_ key: CodingKeys, _ type: T.Type) throws -> Field<T> {
            guard c.contains(key) else { return .absent }
            if try c.decodeNil(forKey: key) { return .null }
            return .value(try c.decode(T.self, forKey: key))
        }
        title = try field(.title, String.self)
        caption = try field(.caption, String.self)
        keywords = try field(.keywords, [String].self)
        addKeywords = try c.decodeIfPresent([String].self, forKey: .addKeywords)
        removeKeywords = try c.decodeIfPresent([String].self, forKey: .removeKeywords)
        // A number read as such, so that 2.5 is refused by name rather than as unreadable JSON.
        switch try field(.rating, Double.self) {
        case .absent: rating = .absent
        case .null: rating = .null
        case .value(let stars):
            guard stars.rounded() == stars, abs(stars) < 1e9 else {
                throw APIError.badRequest("'rating' must be a whole number of stars from 0 to 5, not \(stars)")
            }
            rating = .value(Int(stars))
        }
        creationDate = try field(.creationDate, String.self)
        location = try field(.location, LocationBody.self)
        revert = try c.decodeIfPresent([Revertible].self, forKey: .revert)
        shiftCreationDate = try c.decodeIfPresent(Shift.self, forKey: .shiftCreationDate)
    }

    /// Whether the request changes any metadata.
    var isEmpty: Bool {
        !title.isPresent && !caption.isPresent && !keywords.isPresent && addKeywords == nil && removeKeywords == nil
            && !rating.isPresent && !creationDate.isPresent && !location.isPresent && revert == nil && shiftCreationDate == nil
    }

    /// The changes, checked as far as a request can be before the library checks the values: what is wrong
    /// is a 400 or 422 that names the field.
    func requests(for assets: [Asset], batch: Bool) throws -> (ChangeRequests) -> Void {
        for (name, list) in [("keywords", keywords.valueOrNil), ("addKeywords", addKeywords), ("removeKeywords", removeKeywords)] {
            if let list, list.count > Self.maximumKeywordsPerList {
                throw APIError.unprocessable("'\(name)' may list at most \(Self.maximumKeywordsPerList) keywords, not \(list.count)")
            }
        }
        if keywords.isPresent && (addKeywords != nil || removeKeywords != nil) {
            throw APIError.unprocessable("'keywords' replaces the keywords: do not combine it with 'addKeywords' or 'removeKeywords'")
        }
        if case .value(let rating) = rating, !(0...UserMetadata.maximumRating).contains(rating) {
            throw APIError.unprocessable("'rating' is 0 (none) to \(UserMetadata.maximumRating) stars, not \(rating)")
        }
        if case .null = creationDate {
            throw APIError.unprocessable("'creationDate' cannot be cleared: send \"revert\": [\"creationDate\"] to bring back the file's date")
        }
        let date: (Date, Int?)? = try creationDate.valueOrNil.map { text in
            let local = try CaptureDateTime(parsing: text)
            return (local.date(secondsFromGMT: local.secondsFromGMT), local.secondsFromGMT)
        }
        let reverts = Set(revert ?? [])
        if reverts.contains(.creationDate) && (date != nil || shiftCreationDate != nil) {
            throw APIError.unprocessable("'revert' of the creationDate cannot be combined with a new 'creationDate' or a shift")
        }
        if reverts.contains(.location) && location.isPresent {
            throw APIError.unprocessable("'revert' of the location cannot be combined with a new 'location'")
        }
        if shiftCreationDate != nil && date != nil {
            throw APIError.unprocessable("give 'creationDate' or 'shiftCreationDate', not both")
        }
        if shiftCreationDate != nil && !batch {
            throw APIError.unprocessable("'shiftCreationDate' shifts a selection: send it to PATCH /api/v1/assets")
        }
        let shift: (TimeInterval, Int?)? = try shiftCreationDate.map { shift in
            guard shift.seconds.isFinite else { throw APIError.unprocessable("'shiftCreationDate.seconds' must be a finite number") }
            return (shift.seconds, try shift.timeZone.map { try CaptureDateTime.offset(parsing: $0) } ?? nil)
        }
        let place: GPSLocation?? = try location.isPresent ? .some(location.valueOrNil.map(Self.location)) : nil
        let ids = assets.map(\.id)
        return { changes in
            switch title {
            case .absent: break
            case .null: changes.setTitle(nil, for: ids)
            case .value(let text): changes.setTitle(text, for: ids)
            }
            switch caption {
            case .absent: break
            case .null: changes.setCaption(nil, for: ids)
            case .value(let text): changes.setCaption(text, for: ids)
            }
            switch keywords {
            case .absent: break
            case .null: changes.setKeywords([], for: ids)
            case .value(let list): changes.setKeywords(list, for: ids)
            }
            if let addKeywords { changes.addKeywords(addKeywords, to: ids) }
            if let removeKeywords { changes.removeKeywords(removeKeywords, from: ids) }
            switch rating {
            case .absent: break
            case .null: changes.setRating(0, for: ids)
            case .value(let stars): changes.setRating(stars, for: ids)
            }
            if let (moment, offset) = date { changes.setCreationDate(moment, offset: offset, for: ids) }
            if let (seconds, offset) = shift { changes.shiftCreationDates(of: ids, by: seconds, offset: offset) }
            if reverts.contains(.creationDate) { changes.revertCreationDate(of: ids) }
            if let place { changes.setLocation(place, for: ids) }
            if reverts.contains(.location) { changes.revertLocation(of: ids) }
        }
    }

    private static func location(_ body: LocationBody) throws -> GPSLocation {
        guard let location = GPSLocation(latitude: body.latitude, longitude: body.longitude, altitude: body.altitude) else {
            throw APIError.unprocessable(
                "'location' needs a latitude from -90 to 90 and a longitude from -180 to 180 degrees, not \(body.latitude), \(body.longitude)")
        }
        if let altitude = body.altitude, !(altitude.isFinite && (-11_000...100_000).contains(altitude)) {
            throw APIError.unprocessable("'location.altitude' is a number of metres from -11000 to 100000, not \(altitude)")
        }
        return location
    }
}

extension MetadataPatch.Field {
    var valueOrNil: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension AssetResponse {
    enum MetadataKeys: String, CodingKey {
        case title, caption, keywords, rating, localCreationDate, creationDateEdited, locationEdited, file
    }

    /// The date, time zone and place the original file carries; unknown values are null.
    struct FileValues: Encodable {
        var creationDate: Date
        var creationDateOffset: Int?
        var creationDateSource: String
        var location: Location?

        enum CodingKeys: String, CodingKey { case creationDate, creationDateOffset, creationDateSource, location }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(creationDate, forKey: .creationDate)
            try c.encode(creationDateOffset, forKey: .creationDateOffset)
            try c.encode(creationDateSource, forKey: .creationDateSource)
            try c.encode(location, forKey: .location)
        }
    }

    /// Adds the user metadata and the file's own values to the asset's JSON.
    func encodeMetadata(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MetadataKeys.self)
        try c.encode(asset.title, forKey: .title)
        try c.encode(asset.caption, forKey: .caption)
        try c.encode(asset.keywords, forKey: .keywords)
        try c.encode(asset.rating, forKey: .rating)
        try c.encode(CaptureDateTime.text(asset.creationDate, offset: asset.creationDateOffset), forKey: .localCreationDate)
        try c.encode(asset.isCreationDateEdited, forKey: .creationDateEdited)
        try c.encode(asset.isLocationEdited, forKey: .locationEdited)
        let file = asset.fileMetadata.map { file in
            FileValues(
                creationDate: file.creationDate, creationDateOffset: file.creationDateOffset, creationDateSource: file.creationDateSource.rawValue,
                location: file.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) })
        }
        try c.encode(file, forKey: .file)
    }
}
