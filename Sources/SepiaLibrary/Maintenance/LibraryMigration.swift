import Foundation
import SepiaCodecs

/// What ``PhotoLibrary/migrate(from:to:configuration:progress:)`` did.
public struct MigrationReport: Sendable, Hashable, Codable {
    /// Assets, albums, album memberships, edits, import records, presets, faces and people copied, by table.
    public var rows: [String: Int] = [:]
    /// Files stored at the destination (originals and renders).
    public var filesCopied = 0
    /// Files the destination had already (from an earlier, interrupted run).
    public var filesAlreadyThere = 0
    /// True when the rows were copied by an earlier, interrupted run and only files and checks remained.
    public var resumed = false
    /// The destination's own check, hashes verified.
    public var check = IntegrityReport()
}

extension PhotoLibrary {
    /// The tables an embedded library's rows are copied from, in an order that satisfies their references, with
    /// the columns copied and which of them are booleans (SQLite keeps those as integers).
    private static let migratedTables: [(table: String, columns: [String], booleans: Set<String>)] = [
        ("place", ["id", "city", "region", "country", "countryCode", "latitude", "longitude"], []),
        (
            "asset",
            [
                "rowID", "localIdentifier", "mediaType", "pixelWidth", "pixelHeight", "creationDate", "creationDateOffset",
                "creationDateSource", "localYear", "localMonth", "modificationDate", "addedDate", "latitude", "longitude", "altitude",
                "isFavorite", "isHidden", "originalFilename", "contentHash", "originalFormat", "originalByteCount", "originalOrientation",
                "originalWidth", "originalHeight", "cameraMake", "cameraModel", "currentAdjustmentID", "revision", "mediaSubtypes",
                "duration", "contentIdentifier", "originalVersion", "title", "caption", "keywords", "keywordIndex", "rating",
                "fileCreationDate", "fileCreationDateOffset", "fileCreationDateSource", "fileLatitude", "fileLongitude", "fileAltitude",
                "trashedDate", "placeID", "placedLatitude", "placedLongitude",
            ],
            ["isFavorite", "isHidden"]
        ),
        (
            "resource",
            [
                "assetRowID", "type", "originalFilename", "contentHash", "format", "byteCount", "pixelWidth", "pixelHeight", "duration",
                "needsPlayableVersion", "decodedPixels",
            ],
            ["needsPlayableVersion"]
        ),
        (
            "adjustment",
            [
                "rowID", "localIdentifier", "assetRowID", "formatIdentifier", "formatVersion", "data", "creationDate",
                "renderedContentHash", "renderedWidth", "renderedHeight", "baseAdjustmentID",
            ],
            []
        ),
        ("album", ["rowID", "localIdentifier", "title", "creationDate", "position", "revision"], []),
        ("albumMember", ["albumRowID", "assetRowID", "position"], []),
        ("importSource", ["path", "byteCount", "modificationTime", "inode", "contentHash"], []),
        ("preset", ["rowID", "localIdentifier", "name", "nameKey", "recipe", "creationDate", "modificationDate"], []),
        (
            "person",
            ["rowID", "localIdentifier", "name", "nameKey", "keyFaceRowID", "isHidden", "faceCount", "assetCount", "creationDate"],
            ["isHidden"]
        ),
        (
            "face",
            [
                "rowID", "localIdentifier", "assetRowID", "x", "y", "width", "height", "confidence", "descriptor", "personRowID", "state",
                "algorithm",
            ],
            []
        ),
        ("faceRejection", ["faceRowID", "personRowID"], []),
        ("faceIndex", ["assetRowID", "algorithm", "faceCount", "indexedDate"], []),
        ("perceptualHash", ["assetRowID", "hash", "algorithm"], []),
        ("duplicateDismissal", ["firstRowID", "secondRowID"], []),
        ("savedSearch", ["rowID", "localIdentifier", "title", "query", "creationDate"], []),
    ]

    /// Copies the embedded library in `source` (SQLite and files in its folder) into a scale-out one: the
    /// database and storage `configuration` names, with `folder` as this machine's folder for caches (it may
    /// be `source` itself). The source is only read.
    ///
    /// Files go first (an object already stored with the same size is kept), then every row in one
    /// transaction that also records the source; the destination must be empty or an earlier migration of the
    /// same source. Killed at any point, running it again resumes: files already stored are skipped, and rows
    /// either all arrived or none did. It ends by comparing the row counts and checking the destination,
    /// every file read back and its SHA-256 verified; a report that is not sound means the migration is not
    /// done.
    public static func migrate(
        from source: String, to folder: String, configuration: LibraryConfiguration,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws(LibraryError) -> MigrationReport {
        guard case .postgreSQL = configuration.database else {
            throw LibraryError(.invalidRequest, "the destination must be a PostgreSQL database (--to postgres://…)")
        }
        var sourceConfiguration = LibraryConfiguration(watchesMemoryPressure: false)
        sourceConfiguration.diskCacheLimit = nil
        let from = try PhotoLibrary.open(at: source, configuration: sourceConfiguration)
        defer { from.close() }
        let to = try PhotoLibrary.open(at: folder, configuration: configuration)
        defer { to.close() }
        guard let sourceStore = from.store as? SQLLibraryStore, sourceStore.database is SQLiteDatabase,
            let destination = to.store as? SQLLibraryStore
        else {
            throw LibraryError(.invalidRequest, "the source must be an embedded library (a folder with library.sqlite)", subject: source)
        }
        let identity = URL(fileURLWithPath: source).standardizedFileURL.path
        var report = MigrationReport()

        // The destination: empty, or this source's earlier migration.
        let (recorded, hasAssets) = try destination.read { db in
            (
                try db.value("SELECT value FROM libraryInfo WHERE key = 'migratedFrom'", as: String.self),
                try db.value("SELECT 1 FROM asset LIMIT 1", as: Int.self) != nil
            )
        }
        if hasAssets && recorded != identity {
            throw LibraryError(
                .invalidRequest,
                recorded.map { "the destination holds a migration of another library (\($0))" }
                    ?? "the destination library has photos already; migrate into an empty one", subject: source)
        }
        report.resumed = recorded == identity

        // Files, unless the destination keeps them in this very folder.
        let sameFiles = to.blobs is FolderBlobStore && from.folder.root == to.folder.root
        let files = try sourceStore.allFileReferences()
        if !sameFiles {
            for (done, file) in files.enumerated() {
                progress(done, files.count)
                let path = try await from.blobs.localPath(of: file)
                if case .stored = try await to.blobs.inspect(file, reading: false) {
                    report.filesAlreadyThere += 1
                    continue
                }
                let copy = to.folder.temporary + "/migrate-" + UUID().uuidString
                do {
                    try FileManager.default.copyItem(atPath: path, toPath: copy)
                } catch {
                    throw LibraryError(.fileSystem, "cannot copy \(file.key) to \(to.folder.temporary): \(error.localizedDescription)", subject: path)
                }
                try await to.blobs.store(movingFileAt: copy, as: file)
                report.filesCopied += 1
            }
        }
        progress(files.count, files.count)

        // Rows, all in one transaction.
        var counts: [String: Int] = [:]
        for entry in migratedTables {
            counts[entry.table] = try sourceStore.read { db in try db.value("SELECT count(*) FROM \(entry.table)", as: Int.self) ?? 0 }
        }
        if !report.resumed {
            let tables = try sourceStore.read { db in
                try migratedTables.map { entry in
                    try db.fetch("SELECT \(entry.columns.joined(separator: ", ")) FROM \(entry.table)")
                }
            }
            try destination.write { db in
                for (entry, rows) in zip(migratedTables, tables) {
                    let overriding = entry.columns.first == "rowID" ? " OVERRIDING SYSTEM VALUE" : ""
                    let placeholders = Array(repeating: "?", count: entry.columns.count).joined(separator: ", ")
                    let sql =
                        "INSERT INTO \(entry.table) (\(entry.columns.joined(separator: ", ")))\(overriding) VALUES (\(placeholders))"
                    let booleans = Set(entry.columns.indices.filter { entry.booleans.contains(entry.columns[$0]) })
                    for row in rows {
                        var values = row.values
                        // A NULL stays NULL: a movie's unknown needsPlayableVersion is not a "no".
                        for index in booleans where values[index] != .null { values[index] = .bool(Bool.read(values[index])) }
                        try db.execute(sql, values)
                    }
                    if overriding.isEmpty == false {
                        try db.execute(
                            "SELECT setval(pg_get_serial_sequence('\(entry.table.lowercased())', 'rowid'), coalesce(max(rowID), 0) + 1, false) FROM \(entry.table)"
                        )
                    }
                }
                for (key, condition) in SQLLibraryStore.keptCounts {
                    let count = try db.value("SELECT count(*) FROM asset WHERE \(condition)", as: Int.self) ?? 0
                    try SQLLibraryStore.setInfo(db, key, String(count))
                }
                try SQLLibraryStore.setInfo(db, "migratedFrom", identity)
                try SQLLibraryStore.rebuildSearchIndex(db)
                try SQLLibraryStore.setInfo(db, "searchIndex", SQLLibraryStore.searchIndexVersion)
            }
        }

        // The counts, and every file read back.
        for entry in migratedTables {
            let copied = try destination.read { db in try db.value("SELECT count(*) FROM \(entry.table)", as: Int.self) ?? 0 }
            report.rows[entry.table] = copied
            if copied != counts[entry.table] {
                report.check.problems.append("\(entry.table): \(copied) rows at the destination, \(counts[entry.table] ?? 0) in the source")
            }
        }
        let check = try await to.check(verifyingHashes: true)
        report.check.problems += check.problems
        report.check.notes += check.notes
        report.check.assets = check.assets
        report.check.files = check.files
        report.check.bytesVerified = check.bytesVerified
        return report
    }
}
