import Foundation
import SepiaCodecs

extension SQLLibraryStore {
    func commit(_ changes: [StoredChange], files: FileCheck) throws(LibraryError) -> CommitResult {
        try write { db in
            var result = CommitResult(generation: 0)
            let now = Date().timeIntervalSince1970
            let fileExists: (StoredFile) throws -> Bool =
                switch files {
                case .exists(let check): check
                case .notSweptAfter(let sweep):
                    { file in
                        try db.value(
                            "SELECT 1 FROM sweptFile WHERE kind = ? AND hash = ? AND sweep > ?", [file.kind.rawValue, file.hash, sweep(file)],
                            as: Int.self) == nil
                    }
                }
            let before = try Self.generation(db)
            for change in changes {
                try Self.apply(change, db: db, now: now, fileExists: fileExists, result: &result)
            }
            try Self.placeChangedAssets(db, after: before, finder: places)
            try Self.indexChangedAssets(db, after: before)
            try Self.pruneChangeLog(db)
            result.generation = try Self.generation(db)
            return result
        }
    }

    private static func apply(
        _ change: StoredChange, db: any SQLSession, now: Double, fileExists: (StoredFile) throws -> Bool, result: inout CommitResult
    ) throws {
        switch change {
        case .createAsset(let new):
            try insert(new, db: db, now: now, fileExists: fileExists, result: &result)
        case .deleteAssets(let ids):
            for id in ids {
                try delete(assetID: id, db: db, result: &result)
            }
        case .trashAssets(let ids, let date):
            for id in ids {
                try trash(assetID: id, date: date, db: db)
            }
        case .recoverAssets(let ids):
            for id in ids {
                try recover(assetID: id, db: db)
            }
        case .setFavorite(let id, let value):
            try update(assetID: id, db: db, now: now, set: "isFavorite = ?", [value], unless: "isFavorite = ?", [value])
        case .showRAW(let id, let raw):
            if try showRAW(raw, assetID: id, db: db, now: now) { result.reversionedAssetIDs.append(id) }
        case .setHidden(let id, let value):
            if try update(assetID: id, db: db, now: now, set: "isHidden = ?", [value], unless: "isHidden = ?", [value]) {
                try touchAlbums(containing: id, db: db)
                try adjustAssetCounts(db, visible: value ? -1 : 1, hidden: value ? 1 : -1)
            }
        case .createAlbum(let id, let title):
            let position = (try db.value("SELECT max(position) FROM album", as: Int64.self) ?? -1) + 1
            let rowID: Int64 =
                try db.value(
                    "INSERT INTO album (localIdentifier, title, creationDate, position) VALUES (?, ?, ?, ?) RETURNING rowID",
                    [id, try validTitle(title), now, position]) ?? 0
            try log(db, entity: "album", rowID: rowID, identifier: id, operation: "insert")
        case .renameAlbum(let id, let title):
            let album = try albumRow(id, db: db)
            try db.execute("UPDATE album SET title = ?, revision = revision + 1 WHERE rowID = ?", [try validTitle(title), album])
            try log(db, entity: "album", rowID: album, identifier: id, operation: "update")
        case .deleteAlbums(let ids):
            for id in ids {
                let album = try albumRow(id, db: db)
                let snapshot = try db.fetchOne(albumSelect + " WHERE al.rowID = ?", [album]).map(Self.album(from:))
                try db.execute("DELETE FROM album WHERE rowID = ?", [album])
                try log(
                    db, entity: "album", rowID: album, identifier: id, operation: "delete",
                    snapshot: try snapshot.map { try JSONEncoder().encode($0) })
            }
        case .addAssets(let albumID, let assetIDs):
            let album = try albumRow(albumID, db: db)
            let existing = Set(try db.keys("SELECT assetRowID FROM albumMember WHERE albumRowID = ?", [album]))
            var position = (try db.value("SELECT max(position) FROM albumMember WHERE albumRowID = ?", [album], as: Int64.self) ?? -1) + 1
            var added = Set<Int64>()
            // A part that joined its Live Photo earlier in this commit is added as that asset.
            for id in assetIDs {
                let asset = try changeableAssetRow(result.pairedAssets[id] ?? id, db: db)
                guard !existing.contains(asset), added.insert(asset).inserted else { continue }
                try db.execute("INSERT INTO albumMember (albumRowID, assetRowID, position) VALUES (?, ?, ?)", [album, asset, position])
                position += 1
            }
            if !added.isEmpty { try touchAlbum(album, identifier: albumID, db: db) }
        case .insertAssets(let albumID, let assetIDs, let index):
            let album = try albumRow(albumID, db: db)
            let (shown, deleted) = try albumMembers(album, db: db)
            var members = shown
            guard (0...members.count).contains(index) else {
                throw LibraryError(
                    .invalidRequest, "cannot insert at index \(index): the album has \(members.count) assets", subject: albumID)
            }
            var rows: [Int64] = []
            for id in assetIDs {
                let asset = try changeableAssetRow(id, db: db)
                if members.contains(asset) || rows.contains(asset) {
                    throw LibraryError(.invalidRequest, "the asset is already in the album; move it instead", subject: id)
                }
                rows.append(asset)
            }
            members.insert(contentsOf: rows, at: index)
            try renumber(album: album, members: placing(deleted, among: members), inserting: Set(rows), db: db)
            if !rows.isEmpty { try touchAlbum(album, identifier: albumID, db: db) }
        case .removeAssets(let albumID, let assetIDs):
            let album = try albumRow(albumID, db: db)
            var removed = 0
            for id in assetIDs {
                let asset = try assetRow(id, db: db)
                removed += try db.execute("DELETE FROM albumMember WHERE albumRowID = ? AND assetRowID = ?", [album, asset])
            }
            if removed > 0 { try touchAlbum(album, identifier: albumID, db: db) }
        case .moveAssets(let albumID, let from, let to):
            let album = try albumRow(albumID, db: db)
            let (shown, deleted) = try albumMembers(album, db: db)
            var members = shown
            guard let last = from.last, last < members.count, let first = from.first, first >= 0 else {
                throw LibraryError(.invalidRequest, "the indexes to move are outside the album's \(members.count) assets", subject: albumID)
            }
            let moving = from.map { members[$0] }
            for index in from.reversed() { members.remove(at: index) }
            guard (0...members.count).contains(to) else {
                throw LibraryError(
                    .invalidRequest, "cannot move to index \(to): \(members.count) assets remain once the moved ones are taken out",
                    subject: albumID)
            }
            members.insert(contentsOf: moving, at: to)
            try renumber(album: album, members: placing(deleted, among: members), inserting: [], db: db)
            try touchAlbum(album, identifier: albumID, db: db)
        case .setAdjustment(let id, let adjustment):
            let render = StoredFile(kind: .render, hash: adjustment.renderedContentHash, format: .jpeg)
            guard try fileExists(render) else { throw StoreRetry.fileVanished(render) }
            guard let row = try db.fetchOne("SELECT rowID, currentAdjustmentID, trashedDate FROM asset WHERE localIdentifier = ?", [id])
            else { throw LibraryError.notFound(asset: id) }
            if (row[2] as Double?) != nil { throw LibraryError.inRecentlyDeleted(asset: id) }
            let asset: Int64 = row[0]
            if let base = adjustment.baseAdjustmentID {
                let baseRender = try db.value(
                    "SELECT renderedContentHash FROM adjustment WHERE localIdentifier = ? AND assetRowID = ?", [base, asset], as: String.self)
                guard baseRender != nil else {
                    throw LibraryError(
                        .invalidEditingOutput, "the edit started from an earlier edit's render, which is no longer kept; edit again",
                        subject: id)
                }
            }
            if let previous: String = row[1] {
                // The previous edit's render, and the render it was based on, go unless the new edit builds on them.
                for candidate in try editAndBase(previous, db: db) where candidate != adjustment.baseAdjustmentID {
                    result.releasedFiles += try releaseRender(of: candidate, keeping: adjustment.renderedContentHash, db: db)
                }
            }
            try db.execute(
                """
                INSERT INTO adjustment (localIdentifier, assetRowID, formatIdentifier, formatVersion, data, creationDate,
                  renderedContentHash, renderedWidth, renderedHeight, baseAdjustmentID) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    adjustment.id, asset, adjustment.data.formatIdentifier, adjustment.data.formatVersion, adjustment.data.data,
                    adjustment.creationDate.timeIntervalSince1970, adjustment.renderedContentHash, adjustment.renderedWidth,
                    adjustment.renderedHeight, adjustment.baseAdjustmentID,
                ])
            try update(
                assetID: id, db: db, now: now, set: "currentAdjustmentID = ?, pixelWidth = ?, pixelHeight = ?",
                [adjustment.id, adjustment.renderedWidth, adjustment.renderedHeight])
            // Faces are where the asset shows them: an edit (a crop, a rotation) has them found again.
            try db.execute("DELETE FROM faceIndex WHERE assetRowID = ?", [asset])
            result.reversionedAssetIDs.append(id)
        case .revert(let id):
            guard let row = try db.fetchOne("SELECT rowID, currentAdjustmentID, trashedDate FROM asset WHERE localIdentifier = ?", [id])
            else { throw LibraryError.notFound(asset: id) }
            if (row[2] as Double?) != nil { throw LibraryError.inRecentlyDeleted(asset: id) }
            guard let current: String = row[1] else { return }
            for candidate in try editAndBase(current, db: db) {
                result.releasedFiles += try releaseRender(of: candidate, keeping: nil, db: db)
            }
            try update(
                assetID: id, db: db, now: now,
                set: "currentAdjustmentID = NULL, pixelWidth = originalWidth, pixelHeight = originalHeight", [])
            try db.execute("DELETE FROM faceIndex WHERE assetRowID = ?", [row[0] as Int64])
            result.reversionedAssetIDs.append(id)
        case .addResource(let id, let resource):
            guard try fileExists(resource.storedFile) else { throw StoreRetry.fileVanished(resource.storedFile) }
            let asset = try assetRow(id, db: db)
            try db.execute("DELETE FROM resource WHERE assetRowID = ? AND type = ?", [asset, resource.type.rawValue])
            try insertResource(resource, assetRowID: asset, db: db)
            // A derived file may arrive while the asset is in Recently Deleted (its video was being encoded).
            _ = try update(assetID: id, db: db, now: now, set: "mediaSubtypes = mediaSubtypes", [], allowingRecentlyDeleted: true)
        case .editMetadata(let ids, let edit):
            try editMetadata(of: ids, edit, db: db, now: now)
        case .recordImportSource(let source):
            try db.execute(
                """
                INSERT INTO importSource (path, byteCount, modificationTime, inode, contentHash) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET byteCount = excluded.byteCount, modificationTime = excluded.modificationTime,
                  inode = excluded.inode, contentHash = excluded.contentHash
                """,
                [source.path, source.byteCount, source.modificationTime, Int64(bitPattern: source.inode), source.contentHash])
        }
    }

    /// A commit must be retried: a file it names was removed by a concurrent clean-up.
    enum StoreRetry: Error {
        case fileVanished(StoredFile)
    }

    private static func insert(
        _ new: NewAsset, db: any SQLSession, now: Double, fileExists: (StoredFile) throws -> Bool, result: inout CommitResult
    ) throws {
        let a = new.asset
        for resource in new.resources {
            if let existing = try db.value(
                "SELECT a.localIdentifier FROM resource r JOIN asset a ON a.rowID = r.assetRowID WHERE r.contentHash = ?", [resource.contentHash],
                as: String.self)
            {
                throw LibraryError(.duplicate, "the file is already in the library as asset \(existing)", subject: resource.originalFilename)
            }
        }
        for file in new.files { guard try fileExists(file) else { throw StoreRetry.fileVanished(file) } }
        if new.mayPair, let partner = try LivePhotoPairing.partner(of: a, db: db) {
            try pair(new, with: partner, db: db, now: now)
            result.pairedAssets[a.id] = partner.id
            return
        }
        if new.mayPair, let partner = try RAWPairing.partner(of: a, db: db) {
            if try pairRAW(new, with: partner, db: db, now: now) { result.reversionedAssetIDs.append(partner.id) }
            result.pairedAssets[a.id] = partner.id
            return
        }
        let (year, month) = localYearMonth(a.creationDate, offset: a.creationDateOffset)
        let user = try a.userMetadata.validated()
        let file =
            a.fileMetadata
            ?? FileMetadata(
                creationDate: a.creationDate, creationDateOffset: a.creationDateOffset, creationDateSource: a.creationDateSource,
                location: a.location)
        let rowID: Int64 =
            try db.value(
                """
                INSERT INTO asset (localIdentifier, mediaType, pixelWidth, pixelHeight, creationDate, creationDateOffset,
                  creationDateSource, localYear, localMonth, modificationDate, addedDate, latitude, longitude, altitude,
                  isFavorite, isHidden, originalFilename, contentHash, originalFormat, originalByteCount, originalOrientation,
                  originalWidth, originalHeight, cameraMake, cameraModel, mediaSubtypes, duration, contentIdentifier,
                  title, caption, keywords, keywordIndex, rating, fileCreationDate, fileCreationDateOffset, fileCreationDateSource,
                  fileLatitude, fileLongitude, fileAltitude)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                  ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING rowID
                """,
                [
                    a.id, a.mediaType.rawValue, a.pixelWidth, a.pixelHeight, a.creationDate.timeIntervalSince1970,
                    a.creationDateOffset, a.creationDateSource.rawValue, year, month, a.modificationDate.timeIntervalSince1970,
                    a.addedDate.timeIntervalSince1970, a.location?.latitude, a.location?.longitude, a.location?.altitude,
                    a.isFavorite, a.isHidden, a.originalFilename, a.contentHash, a.originalFormat.rawValue, a.originalByteCount,
                    a.originalOrientation, a.originalWidth, a.originalHeight, a.cameraMake, a.cameraModel, a.mediaSubtypes.rawValue,
                    a.duration, a.contentIdentifier, user.title, user.caption, user.keywords.joined(separator: "\n"),
                    UserMetadata.keywordIndex(user.keywords), user.rating, file.creationDate.timeIntervalSince1970, file.creationDateOffset,
                    file.creationDateSource.rawValue, file.location?.latitude, file.location?.longitude, file.location?.altitude,
                ]) ?? 0
        for resource in new.resources { try insertResource(resource, assetRowID: rowID, db: db) }
        try log(db, entity: "asset", rowID: rowID, identifier: a.id, operation: "insert")
        try adjustAssetCounts(db, visible: a.isHidden ? 0 : 1, hidden: a.isHidden ? 1 : 0)
    }

    private static func delete(assetID: String, db: any SQLSession, result: inout CommitResult) throws {
        guard let row = try db.fetchOne("SELECT \(assetColumns) FROM asset a WHERE a.localIdentifier = ?", [assetID])
        else { throw LibraryError.notFound(asset: assetID) }
        let asset = Self.asset(from: row)
        try touchAlbums(containing: assetID, db: db)
        for row in try db.fetch("SELECT contentHash, format FROM resource WHERE assetRowID = ?", [asset.rowID]) {
            result.releasedFiles.append(StoredFile(kind: .original, hash: row[0], format: ImageFormat(rawValue: row[1]) ?? .jpeg))
        }
        for hash in try db.values(
            "SELECT renderedContentHash FROM adjustment WHERE assetRowID = ? AND renderedContentHash IS NOT NULL", [asset.rowID], as: String.self)
        {
            result.releasedFiles.append(StoredFile(kind: .render, hash: hash, format: .jpeg))
        }
        try db.execute("UPDATE asset SET currentAdjustmentID = NULL WHERE rowID = ?", [asset.rowID])
        // Its faces go with it (and its people's counts, and a person left without faces or a name).
        let people = try peopleBeforeRemovingFaces(ofAsset: asset.rowID, db: db)
        try db.execute("DELETE FROM asset WHERE rowID = ?", [asset.rowID])
        // SQLite's full-text table has no foreign key; PostgreSQL's document goes with the row.
        if db.dialect == .sqlite { try db.execute("DELETE FROM assetSearch WHERE rowid = ?", [asset.rowID]) }
        if let people { try facesRemoved(people: people, db: db) }
        // An asset in Recently Deleted left the counts when it went there.
        if !asset.isRecentlyDeleted {
            try adjustAssetCounts(db, visible: asset.isHidden ? 0 : -1, hidden: asset.isHidden ? -1 : 0)
        }
        try log(
            db, entity: "asset", rowID: asset.rowID, identifier: assetID, operation: "delete", snapshot: try JSONEncoder().encode(asset))
        result.deletedAssetIDs.append(assetID)
    }

    /// Moves an asset to Recently Deleted, as of `date`; one there already keeps its date. It keeps its files
    /// and album memberships, leaves every fetch but Recently Deleted's, and leaves the kept counts.
    private static func trash(assetID: String, date: Date, db: any SQLSession) throws {
        guard let row = try db.fetchOne("SELECT rowID, isHidden, trashedDate FROM asset WHERE localIdentifier = ?", [assetID])
        else { throw LibraryError.notFound(asset: assetID) }
        let rowID: Int64 = row[0]
        let hidden: Bool = row[1]
        guard (row[2] as Double?) == nil else { return }
        try db.execute("UPDATE asset SET trashedDate = ?, revision = revision + 1 WHERE rowID = ?", [date.timeIntervalSince1970, rowID])
        try touchAlbums(containing: assetID, db: db)
        try adjustAssetCounts(db, visible: hidden ? 0 : -1, hidden: hidden ? -1 : 0)
        try log(db, entity: "asset", rowID: rowID, identifier: assetID, operation: LibraryChange.Operation.trash.rawValue)
    }

    /// Brings an asset back from Recently Deleted, into the albums it was in; one not there is left alone.
    private static func recover(assetID: String, db: any SQLSession) throws {
        guard let row = try db.fetchOne("SELECT rowID, isHidden, trashedDate FROM asset WHERE localIdentifier = ?", [assetID])
        else { throw LibraryError.notFound(asset: assetID) }
        let rowID: Int64 = row[0]
        let hidden: Bool = row[1]
        guard (row[2] as Double?) != nil else { return }
        try db.execute("UPDATE asset SET trashedDate = NULL, revision = revision + 1 WHERE rowID = ?", [rowID])
        try touchAlbums(containing: assetID, db: db)
        try adjustAssetCounts(db, visible: hidden ? 0 : 1, hidden: hidden ? 1 : 0)
        try log(db, entity: "asset", rowID: rowID, identifier: assetID, operation: LibraryChange.Operation.recover.rawValue)
    }

    func purgeRecentlyDeleted(deletedBefore cutoff: Date) throws(LibraryError) -> CommitResult {
        try write { db in
            var result = CommitResult(generation: 0)
            // Read inside the write transaction, which writers take one at a time: a purge that ran meanwhile
            // (on another server) has deleted what it found, and this one finds only the rest.
            let ids = try db.values(
                "SELECT localIdentifier FROM asset WHERE trashedDate IS NOT NULL AND trashedDate <= ? ORDER BY trashedDate, rowID",
                [cutoff.timeIntervalSince1970], as: String.self)
            for id in ids {
                try Self.delete(assetID: id, db: db, result: &result)
            }
            if !ids.isEmpty { try Self.pruneChangeLog(db) }
            result.generation = try Self.generation(db)
            return result
        }
    }

    /// Updates an asset, bumping its revision and modification date, unless `unless` already holds. Returns
    /// whether it changed. An asset in Recently Deleted is refused unless `allowingRecentlyDeleted`.
    @discardableResult
    private static func update(
        assetID: String, db: any SQLSession, now: Double, set assignments: String, _ values: [any SQLBindable],
        unless condition: String? = nil, _ conditionValues: [any SQLBindable] = [], allowingRecentlyDeleted: Bool = false
    ) throws -> Bool {
        let rowID = try allowingRecentlyDeleted ? assetRow(assetID, db: db) : changeableAssetRow(assetID, db: db)
        var sql = "UPDATE asset SET \(assignments), revision = revision + 1, modificationDate = ? WHERE rowID = ?"
        var arguments: [any SQLBindable] = values + [now, rowID]
        if let condition {
            sql += " AND NOT (\(condition))"
            arguments += conditionValues
        }
        guard try db.execute(sql, arguments) > 0 else { return false }
        try log(db, entity: "asset", rowID: rowID, identifier: assetID, operation: "update")
        return true
    }

    /// Keeps the counts of visible and hidden assets (`libraryInfo`) in step with a commit's rows.
    static func adjustAssetCounts(_ db: any SQLSession, visible: Int, hidden: Int) throws {
        for (key, delta) in [("visibleAssets", visible), ("hiddenAssets", hidden)] where delta != 0 {
            let current = try db.value("SELECT value FROM libraryInfo WHERE key = ?", [key], as: Int.self) ?? 0
            try setInfo(db, key, String(current + delta))
        }
    }

    /// An adjustment and the one it was based on, if any.
    private static func editAndBase(_ id: String, db: any SQLSession) throws -> [String] {
        let base = try db.value("SELECT baseAdjustmentID FROM adjustment WHERE localIdentifier = ?", [id], as: String.self)
        return [id] + (base.map { [$0] } ?? [])
    }

    /// Marks the render of adjustment `id` as superseded and returns it, unless it is `keeping`.
    private static func releaseRender(of id: String, keeping: String?, db: any SQLSession) throws -> [StoredFile] {
        guard let hash = try db.value("SELECT renderedContentHash FROM adjustment WHERE localIdentifier = ?", [id], as: String.self)
        else { return [] }
        try db.execute("UPDATE adjustment SET renderedContentHash = NULL WHERE localIdentifier = ?", [id])
        return hash == keeping ? [] : [StoredFile(kind: .render, hash: hash, format: .jpeg)]
    }

    private static func assetRow(_ id: String, db: any SQLSession) throws -> Int64 {
        guard let row = try db.value("SELECT rowID FROM asset WHERE localIdentifier = ?", [id], as: Int64.self) else {
            throw LibraryError.notFound(asset: id)
        }
        return row
    }

    /// The key of an asset that a change may alter: one outside Recently Deleted.
    static func changeableAssetRow(_ id: String, db: any SQLSession) throws -> Int64 {
        guard let row = try db.fetchOne("SELECT rowID, trashedDate FROM asset WHERE localIdentifier = ?", [id]) else {
            throw LibraryError.notFound(asset: id)
        }
        if (row[1] as Double?) != nil { throw LibraryError.inRecentlyDeleted(asset: id) }
        return row[0]
    }

    /// An album's members outside Recently Deleted, in order (what an album change's indexes count, as the
    /// album's fetches show them), and those in it, each with the member outside it that it follows (nil: it
    /// comes first), so that a change keeps them where they were for their recovery.
    private static func albumMembers(
        _ album: Int64, db: any SQLSession
    ) throws -> (shown: [Int64], deleted: [(key: Int64, after: Int64?)]) {
        var shown: [Int64] = []
        var deleted: [(key: Int64, after: Int64?)] = []
        for row in try db.fetch(
            """
            SELECT m.assetRowID, a.trashedDate FROM albumMember m JOIN asset a ON a.rowID = m.assetRowID
            WHERE m.albumRowID = ? ORDER BY m.position, m.assetRowID
            """, [album])
        {
            let key: Int64 = row[0]
            if (row[1] as Double?) == nil { shown.append(key) } else { deleted.append((key, shown.last)) }
        }
        return (shown, deleted)
    }

    /// An album's whole order: `shown`, with each of `deleted` after the member it followed.
    private static func placing(_ deleted: [(key: Int64, after: Int64?)], among shown: [Int64]) -> [Int64] {
        guard !deleted.isEmpty else { return shown }
        var following: [Int64?: [Int64]] = [:]
        for (key, after) in deleted { following[after, default: []].append(key) }
        var order = following[nil] ?? []
        for key in shown {
            order.append(key)
            order += following[key] ?? []
        }
        return order
    }

    private static func albumRow(_ id: String, db: any SQLSession) throws -> Int64 {
        if let smart = SmartAlbum(id: id) {
            throw LibraryError(.invalidRequest, "\(smart.title) is a smart album: its assets follow from a rule and cannot be edited", subject: id)
        }
        guard let row = try db.value("SELECT rowID FROM album WHERE localIdentifier = ?", [id], as: Int64.self) else {
            throw LibraryError.notFound(album: id)
        }
        return row
    }

    private static func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LibraryError(.invalidRequest, "an album title cannot be empty") }
        guard trimmed.count <= 500, !trimmed.contains(where: { $0.isNewline }) else {
            throw LibraryError(.invalidRequest, "an album title must be one line of at most 500 characters")
        }
        return trimmed
    }

    private static func renumber(album: Int64, members: [Int64], inserting: Set<Int64>, db: any SQLSession) throws {
        for (position, asset) in members.enumerated() {
            if inserting.contains(asset) {
                try db.execute("INSERT INTO albumMember (albumRowID, assetRowID, position) VALUES (?, ?, ?)", [album, asset, position])
            } else {
                try db.execute(
                    "UPDATE albumMember SET position = ? WHERE albumRowID = ? AND assetRowID = ? AND position <> ?",
                    [position, album, asset, position])
            }
        }
    }

    private static func touchAlbum(_ album: Int64, identifier: String, db: any SQLSession) throws {
        try db.execute("UPDATE album SET revision = revision + 1 WHERE rowID = ?", [album])
        try log(db, entity: "album", rowID: album, identifier: identifier, operation: "update")
    }

    private static func touchAlbums(containing assetID: String, db: any SQLSession) throws {
        let rows = try db.fetch(
            """
            SELECT al.rowID, al.localIdentifier FROM album al JOIN albumMember m ON m.albumRowID = al.rowID
            JOIN asset a ON a.rowID = m.assetRowID WHERE a.localIdentifier = ?
            """, [assetID])
        for row in rows {
            try touchAlbum(row[0], identifier: row[1], db: db)
        }
    }

    /// The calendar year and month of `date` in the place it was taken (UTC when the offset is unknown).
    static func localYearMonth(_ date: Date, offset: Int?) -> (Int, Int) {
        let seconds = Int64((date.timeIntervalSince1970 + Double(offset ?? 0)).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // Civil-from-days (H. Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month))
    }
}
