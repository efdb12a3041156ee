import Foundation
import SepiaCodecs

extension SQLLibraryStore {
    // MARK: - Writes

    /// Applies one metadata edit to each asset: reads it, works out its new values in Swift (validated), and
    /// writes the row only when something changed, so an edit that changes nothing neither bumps the revision
    /// nor tells observers.
    static func editMetadata(of assetIDs: [String], _ edit: MetadataEdit, db: any SQLSession, now: Double) throws {
        let valid = try validated(edit)
        for id in assetIDs {
            guard let row = try db.fetchOne("SELECT \(assetColumns) FROM asset a WHERE a.localIdentifier = ?", [id]) else {
                throw LibraryError.notFound(asset: id)
            }
            let before = asset(from: row)
            if before.isRecentlyDeleted { throw LibraryError.inRecentlyDeleted(asset: id) }
            var after = before
            try apply(valid, to: &after)
            guard after != before else { continue }
            let (year, month) = localYearMonth(after.creationDate, offset: after.creationDateOffset)
            try db.execute(
                """
                UPDATE asset SET title = ?, caption = ?, keywords = ?, keywordIndex = ?, rating = ?, creationDate = ?,
                  creationDateOffset = ?, creationDateSource = ?, localYear = ?, localMonth = ?, latitude = ?, longitude = ?,
                  altitude = ?, revision = revision + 1, modificationDate = ?
                WHERE rowID = ?
                """,
                [
                    after.title, after.caption, after.keywords.joined(separator: "\n"), UserMetadata.keywordIndex(after.keywords),
                    after.rating, after.creationDate.timeIntervalSince1970, after.creationDateOffset, after.creationDateSource.rawValue,
                    year, month, after.location?.latitude, after.location?.longitude, after.location?.altitude, now, before.rowID,
                ])
            try log(db, entity: "asset", rowID: before.rowID, identifier: id, operation: "update")
        }
    }

    /// The edit with its values checked and tidied, once for all its assets.
    private static func validated(_ edit: MetadataEdit) throws(LibraryError) -> MetadataEdit {
        switch edit {
        case .title(let title): .title(try UserMetadata.validTitle(title))
        case .caption(let caption): .caption(try UserMetadata.validCaption(caption))
        case .setKeywords(let keywords): .setKeywords(try UserMetadata.validKeywords(keywords))
        case .addKeywords(let keywords): .addKeywords(try UserMetadata.validKeywords(keywords))
        case .removeKeywords(let keywords): .removeKeywords(try keywords.map { (k: String) throws(LibraryError) in try UserMetadata.validKeyword(k) })
        case .rating(let rating): .rating(try UserMetadata.validRating(rating))
        case .userMetadata(let metadata): .userMetadata(try metadata.validated())
        case .creationDate(let date, let offset):
            .creationDate(try MetadataValidation.date(date), offset: try MetadataValidation.offset(offset))
        case .shiftCreationDate(let interval, let offset):
            .shiftCreationDate(by: try MetadataValidation.interval(interval), offset: try MetadataValidation.offset(offset))
        case .location(let location): .location(try MetadataValidation.location(location))
        case .revertCreationDate, .revertLocation: edit
        }
    }

    /// Applies a validated edit to one asset's values.
    private static func apply(_ edit: MetadataEdit, to asset: inout Asset) throws(LibraryError) {
        let file =
            asset.fileMetadata
            ?? FileMetadata(
                creationDate: asset.creationDate, creationDateOffset: asset.creationDateOffset,
                creationDateSource: asset.creationDateSource, location: asset.location)
        switch edit {
        case .title(let title): asset.title = title
        case .caption(let caption): asset.caption = caption
        case .setKeywords(let keywords): asset.keywords = keywords
        case .addKeywords(let keywords):
            let had = Set(asset.keywords.map { $0.lowercased() })
            let combined = asset.keywords + keywords.filter { !had.contains($0.lowercased()) }
            guard combined.count <= UserMetadata.maximumKeywordCount else {
                throw LibraryError(
                    .invalidRequest,
                    "an asset can have at most \(UserMetadata.maximumKeywordCount) keywords; adding these would give it \(combined.count)",
                    subject: asset.id)
            }
            asset.keywords = combined
        case .removeKeywords(let keywords):
            let removed = Set(keywords.map { $0.lowercased() })
            asset.keywords.removeAll { removed.contains($0.lowercased()) }
        case .rating(let rating): asset.rating = rating
        case .userMetadata(let metadata):
            (asset.title, asset.caption, asset.keywords, asset.rating) = (metadata.title, metadata.caption, metadata.keywords, metadata.rating)
        case .creationDate(let date, let offset):
            asset.creationDate = date
            asset.creationDateOffset = offset
        case .shiftCreationDate(let interval, let offset):
            // The local date and time moves by the interval; read in the new zone when there is one.
            let local = asset.creationDate.timeIntervalSince1970 + Double(asset.creationDateOffset ?? 0) + interval
            let zone = offset ?? asset.creationDateOffset
            asset.creationDate = try MetadataValidation.date(Date(timeIntervalSince1970: local - Double(zone ?? 0)))
            asset.creationDateOffset = zone
        case .revertCreationDate:
            asset.creationDate = file.creationDate
            asset.creationDateOffset = file.creationDateOffset
        case .location(let location): asset.location = location
        case .revertLocation: asset.location = file.location
        }
        // A date equal to the file's is the file's again.
        let isFileDate = asset.creationDate == file.creationDate && asset.creationDateOffset == file.creationDateOffset
        asset.creationDateSource = isFileDate ? file.creationDateSource : .user
    }

    // MARK: - Search

    /// Escapes `%`, `_` and the escape character itself for a `LIKE … ESCAPE '\'` pattern.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    /// Assets with the keyword, or a hierarchical keyword containing its levels (see ``UserMetadata/keywordIndex``).
    static func keywordCondition(_ keyword: String, into arguments: inout [any SQLBindable]) -> String {
        let levels = keyword.split(separator: "|", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
        guard !levels.isEmpty else { return "FALSE" }
        arguments.append("%|" + likeEscaped(levels.joined(separator: "|")) + "|%")
        return "a.keywordIndex LIKE ? ESCAPE '\\'"
    }

    /// Assets whose title, caption or a keyword contains the text.
    static func metadataCondition(_ text: String, dialect: SQLDialect, into arguments: inout [any SQLBindable]) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "FALSE" }
        let pattern = "%" + likeEscaped(trimmed) + "%"
        arguments += [pattern, pattern, "%" + likeEscaped(trimmed.lowercased()) + "%"]
        let like = dialect.caseInsensitiveLike
        return "(a.title \(like) ? ESCAPE '\\' OR a.caption \(like) ? ESCAPE '\\' OR a.keywordIndex LIKE ? ESCAPE '\\')"
    }
}
