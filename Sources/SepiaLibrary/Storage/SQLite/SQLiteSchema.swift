import GRDB

extension SQLiteDatabase {
    /// The schema, as forward-only migrations. Each runs in one transaction; applied ones are recorded in the
    /// database, so a library opened by an older Sepia is recognised.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Integer keys are AUTOINCREMENT so that a deleted row's key is never given to a new row: fetch
            // results hold keys, and a reused key would make a new asset look like an old one changed.
            try db.execute(
                sql: """
                    CREATE TABLE asset (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      mediaType INTEGER NOT NULL,
                      pixelWidth INTEGER NOT NULL CHECK (pixelWidth > 0),
                      pixelHeight INTEGER NOT NULL CHECK (pixelHeight > 0),
                      creationDate DOUBLE NOT NULL,
                      creationDateOffset INTEGER,
                      creationDateSource TEXT NOT NULL,
                      localYear INTEGER NOT NULL,
                      localMonth INTEGER NOT NULL,
                      modificationDate DOUBLE NOT NULL,
                      addedDate DOUBLE NOT NULL,
                      latitude DOUBLE,
                      longitude DOUBLE,
                      altitude DOUBLE,
                      isFavorite BOOLEAN NOT NULL DEFAULT 0,
                      isHidden BOOLEAN NOT NULL DEFAULT 0,
                      originalFilename TEXT NOT NULL,
                      contentHash TEXT NOT NULL UNIQUE,
                      originalFormat TEXT NOT NULL,
                      originalByteCount INTEGER NOT NULL,
                      originalOrientation INTEGER NOT NULL,
                      originalWidth INTEGER NOT NULL,
                      originalHeight INTEGER NOT NULL,
                      cameraMake TEXT,
                      cameraModel TEXT,
                      currentAdjustmentID TEXT REFERENCES adjustment(localIdentifier) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
                      revision INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE INDEX asset_byCreationDate ON asset(isHidden, creationDate);
                    CREATE INDEX asset_byAddedDate ON asset(isHidden, addedDate);
                    CREATE INDEX asset_byModificationDate ON asset(isHidden, modificationDate);
                    CREATE INDEX asset_byLocalMonth ON asset(isHidden, localYear, localMonth, creationDate);
                    CREATE INDEX asset_favorites ON asset(creationDate) WHERE isFavorite;
                    CREATE INDEX asset_edited ON asset(creationDate) WHERE currentAdjustmentID IS NOT NULL;

                    CREATE TABLE adjustment (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      assetRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      formatIdentifier TEXT NOT NULL,
                      formatVersion TEXT NOT NULL,
                      data BLOB NOT NULL,
                      creationDate DOUBLE NOT NULL,
                      renderedContentHash TEXT,
                      renderedWidth INTEGER NOT NULL,
                      renderedHeight INTEGER NOT NULL,
                      baseAdjustmentID TEXT
                    );
                    CREATE INDEX adjustment_byAsset ON adjustment(assetRowID);
                    CREATE INDEX adjustment_byRender ON adjustment(renderedContentHash) WHERE renderedContentHash IS NOT NULL;

                    CREATE TABLE album (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      title TEXT NOT NULL CHECK (length(title) > 0),
                      creationDate DOUBLE NOT NULL,
                      position INTEGER NOT NULL,
                      revision INTEGER NOT NULL DEFAULT 1
                    );

                    CREATE TABLE albumMember (
                      albumRowID INTEGER NOT NULL REFERENCES album(rowID) ON DELETE CASCADE,
                      assetRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      position INTEGER NOT NULL,
                      PRIMARY KEY (albumRowID, assetRowID)
                    ) WITHOUT ROWID;
                    CREATE INDEX albumMember_byPosition ON albumMember(albumRowID, position);
                    CREATE INDEX albumMember_byAsset ON albumMember(assetRowID);

                    CREATE TABLE importSource (
                      path TEXT PRIMARY KEY,
                      byteCount INTEGER NOT NULL,
                      modificationTime DOUBLE NOT NULL,
                      inode INTEGER NOT NULL,
                      contentHash TEXT NOT NULL
                    ) WITHOUT ROWID;

                    CREATE TABLE change (
                      generation INTEGER PRIMARY KEY AUTOINCREMENT,
                      entity TEXT NOT NULL,
                      rowID INTEGER NOT NULL,
                      localIdentifier TEXT NOT NULL,
                      operation TEXT NOT NULL,
                      snapshot BLOB,
                      date DOUBLE NOT NULL
                    );
                    CREATE INDEX change_byObject ON change(entity, rowID);

                    CREATE TABLE libraryInfo (
                      key TEXT PRIMARY KEY,
                      value
                    ) WITHOUT ROWID;
                    INSERT INTO libraryInfo (key, value) VALUES ('changeLogStart', 0);
                    """)
        }
        migrator.registerMigration("v2: swept files") { db in
            // Objects a sweep removed from shared storage, so that a commit naming one it stored meanwhile
            // writes it again (see FileCheck.notSweptAfter).
            try db.execute(
                sql: """
                    CREATE TABLE sweptFile (
                      kind TEXT NOT NULL,
                      hash TEXT NOT NULL,
                      sweep INTEGER NOT NULL,
                      date DOUBLE NOT NULL,
                      PRIMARY KEY (kind, hash)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3: asset counts") { db in
            // The number of visible and of hidden assets, kept by every commit, so that a page of the library
            // need not count a million rows (see SQLLibraryStore.adjustAssetCounts).
            try db.execute(
                sql: """
                    INSERT INTO libraryInfo (key, value) VALUES
                      ('visibleAssets', (SELECT CAST(count(*) AS TEXT) FROM asset WHERE NOT isHidden)),
                      ('hiddenAssets', (SELECT CAST(count(*) AS TEXT) FROM asset WHERE isHidden));
                    """)
        }
        migrator.registerMigration("v4: media and resources") { db in
            // Videos and Live Photos (DESIGN §11): an asset's media subtypes and duration, the content
            // identifier that pairs a Live Photo's still with its movie, and its files as typed resources. The
            // asset's own original columns stay its primary resource's, which every existing asset gets here.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN mediaSubtypes INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE asset ADD COLUMN duration DOUBLE NOT NULL DEFAULT 0;
                    ALTER TABLE asset ADD COLUMN contentIdentifier TEXT;
                    ALTER TABLE asset ADD COLUMN originalVersion TEXT NOT NULL DEFAULT 'original';
                    CREATE INDEX asset_byContentIdentifier ON asset(contentIdentifier) WHERE contentIdentifier IS NOT NULL;
                    CREATE INDEX asset_byMediaType ON asset(mediaType, creationDate);
                    CREATE INDEX asset_live ON asset(creationDate) WHERE (mediaSubtypes & 8) <> 0;

                    CREATE TABLE resource (
                      assetRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      type INTEGER NOT NULL,
                      originalFilename TEXT NOT NULL,
                      contentHash TEXT NOT NULL UNIQUE,
                      format TEXT NOT NULL,
                      byteCount INTEGER NOT NULL,
                      pixelWidth INTEGER NOT NULL,
                      pixelHeight INTEGER NOT NULL,
                      duration DOUBLE NOT NULL DEFAULT 0,
                      PRIMARY KEY (assetRowID, type)
                    ) WITHOUT ROWID;
                    INSERT INTO resource (assetRowID, type, originalFilename, contentHash, format, byteCount, pixelWidth, pixelHeight)
                      SELECT rowID, CASE mediaType WHEN 2 THEN 2 ELSE 1 END, originalFilename, contentHash, originalFormat,
                        originalByteCount, originalWidth, originalHeight FROM asset;
                    """)
        }
        migrator.registerMigration("v5: user metadata") { db in
            // Titles, captions, keywords and ratings, and the file's own date, time zone and location beside the
            // edited ones (a library written before knew only the file's, so they start equal). `keywords` holds
            // them one per line as given; `keywordIndex` lowercased for search (UserMetadata.keywordIndex).
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN title TEXT;
                    ALTER TABLE asset ADD COLUMN caption TEXT;
                    ALTER TABLE asset ADD COLUMN keywords TEXT NOT NULL DEFAULT '';
                    ALTER TABLE asset ADD COLUMN keywordIndex TEXT NOT NULL DEFAULT '';
                    ALTER TABLE asset ADD COLUMN rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5);
                    ALTER TABLE asset ADD COLUMN fileCreationDate DOUBLE;
                    ALTER TABLE asset ADD COLUMN fileCreationDateOffset INTEGER;
                    ALTER TABLE asset ADD COLUMN fileCreationDateSource TEXT;
                    ALTER TABLE asset ADD COLUMN fileLatitude DOUBLE;
                    ALTER TABLE asset ADD COLUMN fileLongitude DOUBLE;
                    ALTER TABLE asset ADD COLUMN fileAltitude DOUBLE;
                    UPDATE asset SET fileCreationDate = creationDate, fileCreationDateOffset = creationDateOffset,
                      fileCreationDateSource = creationDateSource, fileLatitude = latitude, fileLongitude = longitude, fileAltitude = altitude;
                    CREATE INDEX asset_byRating ON asset(rating, creationDate) WHERE rating > 0;
                    """)
        }
        migrator.registerMigration("v6: recently deleted") { db in
            // Recently Deleted: a deleted asset keeps its row, files and album memberships until it is recovered
            // or purged, with the date it was deleted. Every ordinary fetch leaves such assets out, so the indexes
            // they use cover only the others (a partial index, which SQLite uses when the query says
            // `trashedDate IS NULL`), and Recently Deleted has one of its own.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN trashedDate DOUBLE;
                    CREATE INDEX asset_recentlyDeleted ON asset(trashedDate) WHERE trashedDate IS NOT NULL;
                    DROP INDEX asset_byCreationDate;
                    DROP INDEX asset_byAddedDate;
                    DROP INDEX asset_byModificationDate;
                    DROP INDEX asset_byLocalMonth;
                    CREATE INDEX asset_byCreationDate ON asset(isHidden, creationDate) WHERE trashedDate IS NULL;
                    CREATE INDEX asset_byAddedDate ON asset(isHidden, addedDate) WHERE trashedDate IS NULL;
                    CREATE INDEX asset_byModificationDate ON asset(isHidden, modificationDate) WHERE trashedDate IS NULL;
                    CREATE INDEX asset_byLocalMonth ON asset(isHidden, localYear, localMonth, creationDate) WHERE trashedDate IS NULL;
                    """)
        }
        migrator.registerMigration("v7: presets") { db in
            // Edit presets: named recipes of portable steps (EditPreset). `nameKey` is the name folded for
            // case, which names are unique by.
            try db.execute(
                sql: """
                    CREATE TABLE preset (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      name TEXT NOT NULL CHECK (length(name) > 0),
                      nameKey TEXT NOT NULL UNIQUE,
                      recipe BLOB NOT NULL,
                      creationDate DOUBLE NOT NULL,
                      modificationDate DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v8: playable versions") { db in
            // Whether a movie needs a playable version, judged from its headers at import, and the pixels its
            // encode decodes: a playback request or the job queue asks the row, never the file. Movies imported
            // before have NULL, and their headers are read once when it is first asked (PhotoLibrary.playback).
            try db.execute(
                sql: """
                    ALTER TABLE resource ADD COLUMN needsPlayableVersion BOOLEAN;
                    ALTER TABLE resource ADD COLUMN decodedPixels INTEGER;
                    """)
        }
        migrator.registerMigration("v9: people") { db in
            // People (DESIGN §12): the faces indexing found, the people they are grouped into, the user's "Not this
            // person" facts, and which algorithm indexed each asset. A face's box is normalised in the original's
            // upright image; its print is 128 Float32 values, little-endian. `state` is 0 unassigned, 1 grouped,
            // 2 confirmed by the user, and a face has a person exactly when it is not unassigned. A person's
            // `nameKey` is the name folded for case and accents, which names are unique by; `keyFaceRowID` is the
            // face the user chose to show them (NULL: the reads choose). The counts are kept by every change.
            try db.execute(
                sql: """
                    CREATE TABLE person (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      name TEXT CHECK (name IS NULL OR length(name) > 0),
                      nameKey TEXT UNIQUE,
                      keyFaceRowID INTEGER REFERENCES face(rowID) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
                      isHidden BOOLEAN NOT NULL DEFAULT 0,
                      faceCount INTEGER NOT NULL DEFAULT 0,
                      assetCount INTEGER NOT NULL DEFAULT 0,
                      creationDate DOUBLE NOT NULL
                    );
                    CREATE INDEX person_byFaceCount ON person(faceCount);

                    CREATE TABLE face (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      assetRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      x DOUBLE NOT NULL,
                      y DOUBLE NOT NULL,
                      width DOUBLE NOT NULL,
                      height DOUBLE NOT NULL,
                      confidence DOUBLE NOT NULL,
                      descriptor BLOB NOT NULL CHECK (length(descriptor) = 512),
                      personRowID INTEGER REFERENCES person(rowID),
                      state INTEGER NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 2 AND (personRowID IS NULL) = (state = 0)),
                      algorithm INTEGER NOT NULL
                    );
                    CREATE INDEX face_byAsset ON face(assetRowID);
                    CREATE INDEX face_byPerson ON face(personRowID, state, confidence) WHERE personRowID IS NOT NULL;

                    CREATE TABLE faceRejection (
                      faceRowID INTEGER NOT NULL REFERENCES face(rowID) ON DELETE CASCADE,
                      personRowID INTEGER NOT NULL REFERENCES person(rowID) ON DELETE CASCADE,
                      PRIMARY KEY (faceRowID, personRowID)
                    ) WITHOUT ROWID;
                    CREATE INDEX faceRejection_byPerson ON faceRejection(personRowID);

                    CREATE TABLE faceIndex (
                      assetRowID INTEGER PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
                      algorithm INTEGER NOT NULL,
                      faceCount INTEGER NOT NULL,
                      indexedDate DOUBLE NOT NULL
                    );
                    CREATE INDEX faceIndex_byAlgorithm ON faceIndex(algorithm);
                    """)
        }
        migrator.registerMigration("v10: places") { db in
            // Places: the GeoNames city nearest each located asset (SepiaPlaces), its names kept once in `place`.
            // `placedLatitude` and `placedLongitude` are the position the place was found for: a row whose
            // position differs (new, edited or removed, or placed before the tables were installed) is in
            // `asset_unplaced`, which the commit that changes it and PhotoLibrary.updatePlaces() work from.
            try db.execute(
                sql: """
                    CREATE TABLE place (
                      id INTEGER PRIMARY KEY,
                      city TEXT NOT NULL,
                      region TEXT,
                      country TEXT NOT NULL,
                      countryCode TEXT NOT NULL,
                      latitude DOUBLE NOT NULL,
                      longitude DOUBLE NOT NULL
                    );
                    CREATE INDEX place_byCountry ON place(countryCode);
                    ALTER TABLE asset ADD COLUMN placeID INTEGER REFERENCES place(id);
                    ALTER TABLE asset ADD COLUMN placedLatitude DOUBLE;
                    ALTER TABLE asset ADD COLUMN placedLongitude DOUBLE;
                    CREATE INDEX asset_byPlace ON asset(placeID, creationDate) WHERE placeID IS NOT NULL AND trashedDate IS NULL;
                    CREATE INDEX asset_unplaced ON asset(rowID)
                      WHERE placedLatitude IS NOT latitude OR placedLongitude IS NOT longitude;
                    """)
        }
        migrator.registerMigration("v11: search and the map") { db in
            // One search document per asset (SearchText: folded words of its title, caption, keywords, file name,
            // camera and place), its rowid the asset's, written by the commit that changes the asset. The library
            // fills it when first opened by this version (SQLLibraryStore.prepareSearchIndex). The map reads the
            // located assets of a region by position.
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE assetSearch USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE INDEX asset_byLocation ON asset(latitude, longitude) WHERE latitude IS NOT NULL AND trashedDate IS NULL;
                    """)
        }
        migrator.registerMigration("v12: near-duplicates") { db in
            // Each photo's and video's perceptual hash (PerceptualHash: 64 bits as a signed integer; NULL when its
            // picture could not be read), computed from its thumbnail after import; and the pairs the user said
            // are not duplicates, which DuplicateFinder never joins.
            try db.execute(
                sql: """
                    CREATE TABLE perceptualHash (
                      assetRowID INTEGER PRIMARY KEY REFERENCES asset(rowID) ON DELETE CASCADE,
                      hash INTEGER,
                      algorithm INTEGER NOT NULL
                    );
                    CREATE TABLE duplicateDismissal (
                      firstRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      secondRowID INTEGER NOT NULL REFERENCES asset(rowID) ON DELETE CASCADE,
                      PRIMARY KEY (firstRowID, secondRowID),
                      CHECK (firstRowID < secondRowID)
                    ) WITHOUT ROWID;
                    CREATE INDEX duplicateDismissal_bySecond ON duplicateDismissal(secondRowID);
                    """)
        }
        migrator.registerMigration("v13: saved searches") { db in
            // Smart albums from searches: a title and what the search box held; their photos are what it finds.
            try db.execute(
                sql: """
                    CREATE TABLE savedSearch (
                      rowID INTEGER PRIMARY KEY AUTOINCREMENT,
                      localIdentifier TEXT NOT NULL UNIQUE,
                      title TEXT NOT NULL,
                      query TEXT NOT NULL,
                      creationDate DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v14: map cells") { db in
            // The map's cells kept by the database (MapCells): for each of the zooms 0 to 10, the visible located
            // assets counted in cells of 90 / 2^zoom degrees, with their positions' sums and the newest asset
            // added, so that a large region's markers read a few hundred rows instead of every located one.
            // Triggers keep them in the transaction of the change, whichever code makes it.
            try db.execute(sql: "CREATE TABLE mapZoom (zoom INTEGER PRIMARY KEY, degrees DOUBLE NOT NULL)")
            for zoom in 0...10 {
                try db.execute(sql: "INSERT INTO mapZoom (zoom, degrees) VALUES (?, ?)", arguments: [zoom, MapCells.degrees(zoom: zoom)])
            }
            let visible = { (row: String) in
                "\(row).latitude IS NOT NULL AND \(row).longitude IS NOT NULL AND \(row).trashedDate IS NULL AND NOT \(row).isHidden"
            }
            let cell = { (row: String) in
                "CAST((\(row).latitude + 90) / z.degrees AS INTEGER), CAST((\(row).longitude + 180) / z.degrees AS INTEGER)"
            }
            let add = """
                INSERT INTO mapCell (zoom, cellRow, cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID)
                  SELECT z.zoom, \(cell("NEW")), 1, NEW.latitude, NEW.longitude, NEW.rowID FROM mapZoom z WHERE \(visible("NEW"))
                  ON CONFLICT (zoom, cellRow, cellColumn) DO UPDATE SET assetCount = assetCount + 1,
                    latitudeSum = latitudeSum + excluded.latitudeSum, longitudeSum = longitudeSum + excluded.longitudeSum,
                    keyRowID = max(keyRowID, excluded.keyRowID);
                """
            let remove = """
                UPDATE mapCell SET assetCount = assetCount - 1, latitudeSum = latitudeSum - OLD.latitude,
                    longitudeSum = longitudeSum - OLD.longitude
                  WHERE (zoom, cellRow, cellColumn) IN (SELECT z.zoom, \(cell("OLD")) FROM mapZoom z WHERE \(visible("OLD")));
                DELETE FROM mapCell
                  WHERE assetCount <= 0 AND (zoom, cellRow, cellColumn) IN (SELECT z.zoom, \(cell("OLD")) FROM mapZoom z WHERE \(visible("OLD")));
                """
            try db.execute(
                sql: """
                    CREATE TABLE mapCell (
                      zoom INTEGER NOT NULL,
                      cellRow INTEGER NOT NULL,
                      cellColumn INTEGER NOT NULL,
                      assetCount INTEGER NOT NULL,
                      latitudeSum DOUBLE NOT NULL,
                      longitudeSum DOUBLE NOT NULL,
                      keyRowID INTEGER NOT NULL,
                      PRIMARY KEY (zoom, cellRow, cellColumn)
                    ) WITHOUT ROWID;
                    INSERT INTO mapCell (zoom, cellRow, cellColumn, assetCount, latitudeSum, longitudeSum, keyRowID)
                      \(SQLLibraryStore.countedMapCells(dialect: .sqlite));
                    CREATE TRIGGER asset_mapCellsInsert AFTER INSERT ON asset BEGIN
                    \(add)
                    END;
                    CREATE TRIGGER asset_mapCellsDelete AFTER DELETE ON asset BEGIN
                    \(remove)
                    END;
                    CREATE TRIGGER asset_mapCellsUpdate AFTER UPDATE OF latitude, longitude, trashedDate, isHidden ON asset
                      WHEN OLD.latitude IS NOT NEW.latitude OR OLD.longitude IS NOT NEW.longitude
                        OR OLD.trashedDate IS NOT NEW.trashedDate OR OLD.isHidden IS NOT NEW.isHidden
                    BEGIN
                    \(remove)
                    \(add)
                    END;
                    """)
        }
        migrator.registerMigration("v16: visible assets by key") { db in
            // (v15 is PostgreSQL's alone.) The keys of the visible assets, with their local year and month: a
            // search's count looks up each match here instead of in its row, which it read only to learn whether
            // the asset is visible (a common word's 25 000 matches on 100 000 photos: 11 ms against 21), for
            // 1.6 % of the database.
            try db.execute(
                sql: """
                    CREATE INDEX asset_visibleByKey ON asset(rowID, localYear, localMonth) WHERE trashedDate IS NULL AND isHidden = FALSE;
                    """)
        }
        return migrator
    }
}
