import Foundation
import NIOCore
import PostgresNIO

extension PostgresDatabase {
    /// The library's schema, as forward-only migrations with the same names as the SQLite ones. Each server
    /// that opens the library applies what is missing, in one transaction under an advisory lock, so several
    /// servers starting at once apply each migration exactly once.
    static let libraryMigrations: [(identifier: String, sql: String)] = [
        (
            "v1",
            """
            CREATE TABLE asset (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              mediaType BIGINT NOT NULL,
              pixelWidth BIGINT NOT NULL CHECK (pixelWidth > 0),
              pixelHeight BIGINT NOT NULL CHECK (pixelHeight > 0),
              creationDate DOUBLE PRECISION NOT NULL,
              creationDateOffset BIGINT,
              creationDateSource TEXT NOT NULL,
              localYear BIGINT NOT NULL,
              localMonth BIGINT NOT NULL,
              modificationDate DOUBLE PRECISION NOT NULL,
              addedDate DOUBLE PRECISION NOT NULL,
              latitude DOUBLE PRECISION,
              longitude DOUBLE PRECISION,
              altitude DOUBLE PRECISION,
              isFavorite BOOLEAN NOT NULL DEFAULT false,
              isHidden BOOLEAN NOT NULL DEFAULT false,
              originalFilename TEXT COLLATE "C" NOT NULL,
              contentHash TEXT COLLATE "C" NOT NULL UNIQUE,
              originalFormat TEXT NOT NULL,
              originalByteCount BIGINT NOT NULL,
              originalOrientation BIGINT NOT NULL,
              originalWidth BIGINT NOT NULL,
              originalHeight BIGINT NOT NULL,
              cameraMake TEXT COLLATE "C",
              cameraModel TEXT COLLATE "C",
              currentAdjustmentID TEXT COLLATE "C",
              revision BIGINT NOT NULL DEFAULT 1
            );
            CREATE INDEX asset_byCreationDate ON asset(isHidden, creationDate, rowID);
            CREATE INDEX asset_byAddedDate ON asset(isHidden, addedDate, rowID);
            CREATE INDEX asset_byModificationDate ON asset(isHidden, modificationDate, rowID);
            CREATE INDEX asset_byLocalMonth ON asset(isHidden, localYear, localMonth, creationDate);
            CREATE INDEX asset_favorites ON asset(creationDate) WHERE isFavorite;
            CREATE INDEX asset_edited ON asset(creationDate) WHERE currentAdjustmentID IS NOT NULL;

            CREATE TABLE adjustment (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              assetRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              formatIdentifier TEXT NOT NULL,
              formatVersion TEXT NOT NULL,
              data BYTEA NOT NULL,
              creationDate DOUBLE PRECISION NOT NULL,
              renderedContentHash TEXT COLLATE "C",
              renderedWidth BIGINT NOT NULL,
              renderedHeight BIGINT NOT NULL,
              baseAdjustmentID TEXT COLLATE "C"
            );
            CREATE INDEX adjustment_byAsset ON adjustment(assetRowID);
            CREATE INDEX adjustment_byRender ON adjustment(renderedContentHash) WHERE renderedContentHash IS NOT NULL;
            ALTER TABLE asset ADD CONSTRAINT asset_currentAdjustment FOREIGN KEY (currentAdjustmentID)
              REFERENCES adjustment(localIdentifier) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

            CREATE TABLE album (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              title TEXT COLLATE "C" NOT NULL CHECK (length(title) > 0),
              creationDate DOUBLE PRECISION NOT NULL,
              position BIGINT NOT NULL,
              revision BIGINT NOT NULL DEFAULT 1
            );

            CREATE TABLE albumMember (
              albumRowID BIGINT NOT NULL REFERENCES album(rowID) ON DELETE CASCADE,
              assetRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              position BIGINT NOT NULL,
              PRIMARY KEY (albumRowID, assetRowID)
            );
            CREATE INDEX albumMember_byPosition ON albumMember(albumRowID, position);
            CREATE INDEX albumMember_byAsset ON albumMember(assetRowID);

            CREATE TABLE importSource (
              path TEXT COLLATE "C" PRIMARY KEY,
              byteCount BIGINT NOT NULL,
              modificationTime DOUBLE PRECISION NOT NULL,
              inode BIGINT NOT NULL,
              contentHash TEXT COLLATE "C" NOT NULL
            );

            CREATE TABLE change (
              generation BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              entity TEXT NOT NULL,
              rowID BIGINT NOT NULL,
              localIdentifier TEXT COLLATE "C" NOT NULL,
              operation TEXT NOT NULL,
              snapshot BYTEA,
              date DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX change_byObject ON change(entity, rowID);

            CREATE TABLE libraryInfo (
              key TEXT PRIMARY KEY,
              value TEXT
            );
            INSERT INTO libraryInfo (key, value) VALUES ('changeLogStart', '0');
            """
        ),
        (
            "v2: swept files",
            """
            CREATE TABLE sweptFile (
              kind TEXT NOT NULL,
              hash TEXT COLLATE "C" NOT NULL,
              sweep BIGINT NOT NULL,
              date DOUBLE PRECISION NOT NULL,
              PRIMARY KEY (kind, hash)
            );
            """
        ),
        (
            "v3: asset counts",
            """
            INSERT INTO libraryInfo (key, value) VALUES
              ('visibleAssets', (SELECT CAST(count(*) AS TEXT) FROM asset WHERE NOT isHidden)),
              ('hiddenAssets', (SELECT CAST(count(*) AS TEXT) FROM asset WHERE isHidden));
            """
        ),
        (
            "v4: media and resources",
            """
            ALTER TABLE asset ADD COLUMN mediaSubtypes BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE asset ADD COLUMN duration DOUBLE PRECISION NOT NULL DEFAULT 0;
            ALTER TABLE asset ADD COLUMN contentIdentifier TEXT COLLATE "C";
            ALTER TABLE asset ADD COLUMN originalVersion TEXT COLLATE "C" NOT NULL DEFAULT 'original';
            CREATE INDEX asset_byContentIdentifier ON asset(contentIdentifier) WHERE contentIdentifier IS NOT NULL;
            CREATE INDEX asset_byMediaType ON asset(mediaType, creationDate);
            CREATE INDEX asset_live ON asset(creationDate) WHERE (mediaSubtypes & 8) <> 0;
            CREATE TABLE resource (
              assetRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              type BIGINT NOT NULL,
              originalFilename TEXT COLLATE "C" NOT NULL,
              contentHash TEXT COLLATE "C" NOT NULL UNIQUE,
              format TEXT NOT NULL,
              byteCount BIGINT NOT NULL,
              pixelWidth BIGINT NOT NULL,
              pixelHeight BIGINT NOT NULL,
              duration DOUBLE PRECISION NOT NULL DEFAULT 0,
              PRIMARY KEY (assetRowID, type)
            );
            INSERT INTO resource (assetRowID, type, originalFilename, contentHash, format, byteCount, pixelWidth, pixelHeight)
              SELECT rowID, CASE mediaType WHEN 2 THEN 2 ELSE 1 END, originalFilename, contentHash, originalFormat,
                originalByteCount, originalWidth, originalHeight FROM asset;
            """
        ),
        (
            "v5: user metadata",
            """
            ALTER TABLE asset ADD COLUMN title TEXT;
            ALTER TABLE asset ADD COLUMN caption TEXT;
            ALTER TABLE asset ADD COLUMN keywords TEXT NOT NULL DEFAULT '';
            ALTER TABLE asset ADD COLUMN keywordIndex TEXT NOT NULL DEFAULT '';
            ALTER TABLE asset ADD COLUMN rating BIGINT NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5);
            ALTER TABLE asset ADD COLUMN fileCreationDate DOUBLE PRECISION;
            ALTER TABLE asset ADD COLUMN fileCreationDateOffset BIGINT;
            ALTER TABLE asset ADD COLUMN fileCreationDateSource TEXT;
            ALTER TABLE asset ADD COLUMN fileLatitude DOUBLE PRECISION;
            ALTER TABLE asset ADD COLUMN fileLongitude DOUBLE PRECISION;
            ALTER TABLE asset ADD COLUMN fileAltitude DOUBLE PRECISION;
            UPDATE asset SET fileCreationDate = creationDate, fileCreationDateOffset = creationDateOffset,
              fileCreationDateSource = creationDateSource, fileLatitude = latitude, fileLongitude = longitude, fileAltitude = altitude;
            CREATE INDEX asset_byRating ON asset(rating, creationDate) WHERE rating > 0;
            """
        ),
        (
            "v6: recently deleted",
            """
            ALTER TABLE asset ADD COLUMN trashedDate DOUBLE PRECISION;
            CREATE INDEX asset_recentlyDeleted ON asset(trashedDate, rowID) WHERE trashedDate IS NOT NULL;
            DROP INDEX asset_byCreationDate;
            DROP INDEX asset_byAddedDate;
            DROP INDEX asset_byModificationDate;
            DROP INDEX asset_byLocalMonth;
            CREATE INDEX asset_byCreationDate ON asset(isHidden, creationDate, rowID) WHERE trashedDate IS NULL;
            CREATE INDEX asset_byAddedDate ON asset(isHidden, addedDate, rowID) WHERE trashedDate IS NULL;
            CREATE INDEX asset_byModificationDate ON asset(isHidden, modificationDate, rowID) WHERE trashedDate IS NULL;
            CREATE INDEX asset_byLocalMonth ON asset(isHidden, localYear, localMonth, creationDate) WHERE trashedDate IS NULL;
            """
        ),
        (
            "v7: presets",
            """
            CREATE TABLE preset (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              name TEXT COLLATE "C" NOT NULL CHECK (length(name) > 0),
              nameKey TEXT COLLATE "C" NOT NULL UNIQUE,
              recipe BYTEA NOT NULL,
              creationDate DOUBLE PRECISION NOT NULL,
              modificationDate DOUBLE PRECISION NOT NULL
            );
            """
        ),
        (
            "v8: playable versions",
            """
            ALTER TABLE resource ADD COLUMN needsPlayableVersion BOOLEAN;
            ALTER TABLE resource ADD COLUMN decodedPixels BIGINT;
            """
        ),
        (
            "v9: people",
            """
            CREATE TABLE person (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              name TEXT COLLATE "C" CHECK (name IS NULL OR length(name) > 0),
              nameKey TEXT COLLATE "C" UNIQUE,
              keyFaceRowID BIGINT,
              isHidden BOOLEAN NOT NULL DEFAULT false,
              faceCount BIGINT NOT NULL DEFAULT 0,
              assetCount BIGINT NOT NULL DEFAULT 0,
              creationDate DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX person_byFaceCount ON person(faceCount);
            CREATE TABLE face (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              assetRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              x DOUBLE PRECISION NOT NULL,
              y DOUBLE PRECISION NOT NULL,
              width DOUBLE PRECISION NOT NULL,
              height DOUBLE PRECISION NOT NULL,
              confidence DOUBLE PRECISION NOT NULL,
              descriptor BYTEA NOT NULL CHECK (length(descriptor) = 512),
              personRowID BIGINT REFERENCES person(rowID),
              state BIGINT NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 2 AND (personRowID IS NULL) = (state = 0)),
              algorithm BIGINT NOT NULL
            );
            CREATE INDEX face_byAsset ON face(assetRowID);
            CREATE INDEX face_byPerson ON face(personRowID, state, confidence) WHERE personRowID IS NOT NULL;
            ALTER TABLE person ADD CONSTRAINT person_keyFace FOREIGN KEY (keyFaceRowID)
              REFERENCES face(rowID) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;
            CREATE TABLE faceRejection (
              faceRowID BIGINT NOT NULL REFERENCES face(rowID) ON DELETE CASCADE,
              personRowID BIGINT NOT NULL REFERENCES person(rowID) ON DELETE CASCADE,
              PRIMARY KEY (faceRowID, personRowID)
            );
            CREATE INDEX faceRejection_byPerson ON faceRejection(personRowID);
            CREATE TABLE faceIndex (
              assetRowID BIGINT PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
              algorithm BIGINT NOT NULL,
              faceCount BIGINT NOT NULL,
              indexedDate DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX faceIndex_byAlgorithm ON faceIndex(algorithm);
            """
        ),
        (
            "v10: places",
            """
            CREATE TABLE place (
              id BIGINT PRIMARY KEY,
              city TEXT NOT NULL,
              region TEXT,
              country TEXT NOT NULL,
              countryCode TEXT COLLATE "C" NOT NULL,
              latitude DOUBLE PRECISION NOT NULL,
              longitude DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX place_byCountry ON place(countryCode);
            ALTER TABLE asset ADD COLUMN placeID BIGINT REFERENCES place(id);
            ALTER TABLE asset ADD COLUMN placedLatitude DOUBLE PRECISION;
            ALTER TABLE asset ADD COLUMN placedLongitude DOUBLE PRECISION;
            CREATE INDEX asset_byPlace ON asset(placeID, creationDate) WHERE placeID IS NOT NULL AND trashedDate IS NULL;
            CREATE INDEX asset_unplaced ON asset(rowID)
              WHERE placedLatitude IS DISTINCT FROM latitude OR placedLongitude IS DISTINCT FROM longitude;
            """
        ),
        (
            "v11: search and the map",
            """
            CREATE TABLE assetSearch (
              assetRowID BIGINT PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
              body TEXT NOT NULL,
              vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED
            );
            CREATE INDEX assetSearch_vector ON assetSearch USING GIN (vector);
            CREATE INDEX asset_byLocation ON asset(latitude, longitude) WHERE latitude IS NOT NULL AND trashedDate IS NULL;
            """
        ),
        (
            "v12: near-duplicates",
            """
            CREATE TABLE perceptualHash (
              assetRowID BIGINT PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
              hash BIGINT,
              algorithm BIGINT NOT NULL
            );
            CREATE TABLE duplicateDismissal (
              firstRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              secondRowID BIGINT NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
              PRIMARY KEY (firstRowID, secondRowID),
              CHECK (firstRowID < secondRowID)
            );
            CREATE INDEX duplicateDismissal_bySecond ON duplicateDismissal(secondRowID);
            """
        ),
        (
            "v13: saved searches",
            """
            CREATE TABLE savedSearch (
              rowID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
              title TEXT NOT NULL,
              query TEXT NOT NULL,
              creationDate DOUBLE PRECISION NOT NULL
            );
            """
        ),
        (
            // As SQLite's: the map's cells at zooms 0 to 10, kept by a trigger in the transaction of each change.
            // The function's search_path is the library's schema, whichever session's change fires it.
            "v14: map cells",
            """
            CREATE TABLE mapZoom (zoom BIGINT PRIMARY KEY, degrees DOUBLE PRECISION NOT NULL);
            INSERT INTO mapZoom (zoom, degrees) SELECT z, 90 / power(2, z) FROM generate_series(0, 10) z;
            CREATE TABLE mapCell (
              zoom BIGINT NOT NULL,
              cellRow BIGINT NOT NULL,
              cellColumn BIGINT NOT NULL,
              assetCount BIGINT NOT NULL,
              latitudeSum DOUBLE PRECISION NOT NULL,
              longitudeSum DOUBLE PRECISION NOT NULL,
              keyRowID BIGINT NOT NULL,
              PRIMARY KEY (zoom, cellRow, cellColumn)
            );
            INSERT INTO mapCell (zoom, cellRow, cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID)
              \(SQLLibraryStore.countedMapCells(dialect: .postgreSQL));
            CREATE FUNCTION asset_mapCells() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            BEGIN
              IF TG_OP <> 'INSERT' THEN
                IF OLD.latitude IS NOT NULL AND OLD.longitude IS NOT NULL AND OLD.trashedDate IS NULL AND NOT OLD.isHidden THEN
                  UPDATE mapCell m SET assetCount = m.assetCount - 1, latitudeSum = m.latitudeSum - OLD.latitude,
                      longitudeSum = m.longitudeSum - OLD.longitude
                    FROM mapZoom z WHERE m.zoom = z.zoom AND m.cellRow = floor((OLD.latitude + 90) / z.degrees)::bigint
                      AND m.cellColumn = floor((OLD.longitude + 180) / z.degrees)::bigint;
                  DELETE FROM mapCell m USING mapZoom z WHERE m.assetCount <= 0 AND m.zoom = z.zoom
                    AND m.cellRow = floor((OLD.latitude + 90) / z.degrees)::bigint
                    AND m.cellColumn = floor((OLD.longitude + 180) / z.degrees)::bigint;
                END IF;
              END IF;
              IF TG_OP <> 'DELETE' THEN
                IF NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL AND NEW.trashedDate IS NULL AND NOT NEW.isHidden THEN
                  INSERT INTO mapCell AS m (zoom, cellRow, cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID)
                    SELECT z.zoom, floor((NEW.latitude + 90) / z.degrees)::bigint, floor((NEW.longitude + 180) / z.degrees)::bigint,
                      1, NEW.latitude, NEW.longitude, NEW.rowID
                    FROM mapZoom z
                    ON CONFLICT (zoom, cellRow, cellColumn) DO UPDATE SET assetCount = m.assetCount + 1,
                      latitudeSum = m.latitudeSum + excluded.latitudeSum, longitudeSum = m.longitudeSum + excluded.longitudeSum,
                      keyRowID = greatest(m.keyRowID, excluded.keyRowID);
                END IF;
              END IF;
              RETURN NULL;
            END
            $$;
            CREATE TRIGGER asset_mapCells AFTER INSERT OR DELETE ON asset FOR EACH ROW EXECUTE FUNCTION asset_mapCells();
            CREATE TRIGGER asset_mapCellsUpdate AFTER UPDATE OF latitude, longitude, trashedDate, isHidden ON asset FOR EACH ROW
              WHEN (OLD.latitude IS DISTINCT FROM NEW.latitude OR OLD.longitude IS DISTINCT FROM NEW.longitude
                OR OLD.trashedDate IS DISTINCT FROM NEW.trashedDate OR OLD.isHidden IS DISTINCT FROM NEW.isHidden)
              EXECUTE FUNCTION asset_mapCells();
            """
        ),
        (
            // The search documents as their words alone: the text beside them and the words' positions were
            // never read (no ranking by proximity), and made the index a fifth of a library's database. A table
            // written anew, so that the space of the old rows goes with it, and analysed at once: until then the
            // planner guesses, and a rare word's page walked every photo (0.6 s).
            "v15: search words without positions",
            """
            CREATE TABLE assetSearchWords (
              assetRowID BIGINT PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
              vector tsvector NOT NULL
            );
            INSERT INTO assetSearchWords (assetRowID, vector) SELECT assetRowID, strip(vector) FROM assetSearch;
            DROP TABLE assetSearch;
            ALTER TABLE assetSearchWords RENAME TO assetSearch;
            ALTER INDEX assetSearchWords_pkey RENAME TO assetSearch_pkey;
            CREATE INDEX assetSearch_vector ON assetSearch USING GIN (vector);
            ANALYZE assetSearch;
            """
        ),
    ]

    /// Creates the schema if needed and applies the migrations it lacks; refuses a schema written by a newer
    /// Sepia.
    func migrate() throws {
        try pool.withConnection { lease in
            let session = PostgresSession(lease: lease, logger: pool.logger, server: location.server)
            try session.execute("BEGIN")
            do {
                try session.execute("SELECT pg_advisory_xact_lock(?)", [Self.lockKey("sepia.migrate." + location.schema)])
                try session.execute("CREATE SCHEMA IF NOT EXISTS \"\(location.schema)\"")
                try session.execute("SET LOCAL search_path TO \"\(location.schema)\"")
                try session.execute("CREATE TABLE IF NOT EXISTS sepiaMigration (identifier TEXT PRIMARY KEY, appliedAt DOUBLE PRECISION NOT NULL)")
                let applied = Set(try session.values("SELECT identifier FROM sepiaMigration", as: String.self))
                let known = Set(migrations.map(\.identifier))
                if !applied.isSubset(of: known) {
                    throw LibraryError(
                        .newerSchema, "the database was written by a newer version of Sepia; update Sepia to open it",
                        subject: location.identity)
                }
                for migration in migrations where !applied.contains(migration.identifier) {
                    // One statement at a time: the extended query protocol takes one per message.
                    for statement in Self.statements(of: migration.sql) { try session.execute(statement) }
                    try session.execute(
                        "INSERT INTO sepiaMigration (identifier, appliedAt) VALUES (?, ?)", [migration.identifier, Date().timeIntervalSince1970])
                }
                try session.execute("COMMIT")
                // SET LOCAL ended with the transaction.
                lease.searchPath = nil
            } catch {
                if (try? session.execute("ROLLBACK")) == nil { _ = lease.connection.close() as EventLoopFuture<Void> }
                throw error
            }
        }
    }

    /// The statements of a migration, each ending with ";" at the end of a line, but for those inside a
    /// function's body (between "$$" quotes), which are its own.
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        for piece in sql.components(separatedBy: ";\n") {
            current += current.isEmpty ? piece : ";\n" + piece
            // Inside a dollar-quoted body while its quotes are unbalanced.
            if current.components(separatedBy: "$$").count % 2 == 0 { continue }
            let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { statements.append(trimmed) }
            current = ""
        }
        let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { statements.append(rest) }
        return statements
    }
}
