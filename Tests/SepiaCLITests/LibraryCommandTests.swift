import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import SepiaTestSupport
import Testing

/// The library commands as a new user runs them: import a folder, list, edit, revert, export, check.
@Suite(.serialized) struct LibraryCommandTests {
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// A file's tags as exiftool reads them (`-j -G1`), an independent reader of XMP.
    static func exiftool(_ path: String) throws -> [String: Any]? {
        let data = try ExternalProgram.run("/usr/bin/exiftool", ["-j", "-G1", path]).stdout
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first
    }

    @Test("import a folder, list it, edit and revert one photo, export it, and check the library")
    func workflow() async throws {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        // A folder of real photos (the smaller ones of the corpus, to keep the debug build quick).
        let photos = try CommandRunner.temporaryFolder().appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos + "/nested", withIntermediateDirectories: true)
        for name in ["iptc-orientation-3.jpg", "gps-datetime.jpg", "iptc-date-offset.jpg", "flower.jpg"] {
            try FileManager.default.copyItem(atPath: CommandRunner.fixture("photos/" + name), toPath: photos + "/nested/" + name)
        }
        try FileManager.default.copyItem(atPath: CommandRunner.fixture("exif-orientation/Landscape_5.jpg"), toPath: photos + "/Landscape_5.jpg")

        // Import: every photo, into an album; JSON Lines, one per file, then a summary.
        let imported = try await CommandRunner.run([
            "import", photos, CommandRunner.fixture("malformed/hopper.gif"), "--library", library, "--album", "Trip", "--json",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let lines = try imported.stdout.split(separator: "\n").map { try Self.json(String($0)) as? [String: Any] }
        let summary = try #require(lines.last??["summary"] as? [String: Any])
        let photoCount = 5
        #expect(summary["imported"] as? Int == photoCount)
        #expect(summary["skipped"] as? Int == 1)
        let skipped = lines.compactMap { $0 }.first { $0["status"] as? String == "skipped" }
        #expect((skipped?["reason"] as? String)?.contains("GIF is not supported") == true)

        // Re-import: nothing is read again.
        let again = try await CommandRunner.run(["import", photos, "--library", library])
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 imported, \(photoCount) already in the library"), "\(again.stdout)")

        // List, oldest first, with short identifiers; JSON has every field.
        let list = try await CommandRunner.run(["list", "--library", library])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == photoCount)
        let iphoneLine = try #require(list.stdout.split(separator: "\n").first { $0.contains("iptc-orientation-3.jpg") })
        #expect(iphoneLine.contains("2006-07-08 21:14") && iphoneLine.contains("640x480"))
        let short = String(iphoneLine.prefix(8))
        let listed = try #require(
            try Self.json(try await CommandRunner.run(["list", "--library", library, "--json", "--year", "2006"]).stdout) as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["cameraModel"] as? String == "N70-1")

        // Albums and the timeline.
        let albums = try #require(
            try Self.json(try await CommandRunner.run(["albums", "--library", library, "--json", "--timeline"]).stdout) as? [String: Any])
        #expect((albums["albums"] as? [[String: Any]])?.first?["assetCount"] as? Int == photoCount)
        #expect((albums["timeline"] as? [[String: Any]])?.contains { $0["id"] as? String == "2006" } == true)

        // Edit with a filter and Instafilter's slider, then append a second step; the history shows both.
        let edit = try await CommandRunner.run(["edit", short, "CISepiaTone", "--intensity", "0.7", "--library", library, "--json"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let edited = try #require(try Self.json(edit.stdout) as? [String: Any])
        #expect(edited["hasAdjustments"] as? Bool == true)
        #expect(try await CommandRunner.run(["edit", short, "CIVignette", "--append", "--library", library]).status == 0)
        let history = try #require(
            try Self.json(try await CommandRunner.run(["history", short, "--library", library, "--json"]).stdout) as? [[String: Any]])
        #expect(history.count == 2 && history[1]["isCurrent"] as? Bool == true)
        #expect((history[1]["recipe"] as? String)?.contains("CIVignette") == true)

        // A title, keywords (one hierarchical) and a rating, which the export's sidecar carries.
        let metadata = try await CommandRunner.run([
            "metadata", short, "--title", "Harbour at dusk", "--keyword", "Places|France|Paris", "--keyword", "boats", "--rating", "4",
            "--library", library,
        ])
        #expect(metadata.status == 0, "\(metadata.stderr)")

        // Export the edit (a JPEG, upright) and the original (byte for byte).
        let out = try CommandRunner.temporaryFolder().path
        #expect(try await CommandRunner.run(["export", short, "--out-dir", out, "--library", library]).status == 0)
        let exported = try ImageDecoding.open(path: out + "/iptc-orientation-3.jpg")
        #expect(exported.orientation == .up && exported.pixelSize == IntSize(width: 640, height: 480))
        // Beside it, its XMP sidecar: the capture date and the edit recipe, read back by exiftool.
        let sidecar = try #require(try Self.exiftool(out + "/iptc-orientation-3.jpg.xmp"))
        #expect((sidecar["XMP-exif:DateTimeOriginal"] as? String)?.hasPrefix("2006:07:08 21:14") == true, "\(sidecar)")
        #expect((sidecar["XMP-sepia:EditRecipe"] as? String)?.contains("CIVignette") == true, "\(sidecar)")
        #expect(sidecar["XMP-dc:Title"] as? String == "Harbour at dusk", "\(sidecar)")
        #expect(sidecar["XMP-xmp:Rating"] as? Int == 4, "\(sidecar)")
        #expect(Set(sidecar["XMP-dc:Subject"] as? [String] ?? []) == ["Paris", "boats"], "\(sidecar)")
        #expect((sidecar["XMP-lr:HierarchicalSubject"] as? [String])?.contains("Places|France|Paris") == true, "\(sidecar)")
        #expect((sidecar["XMP-digiKam:TagsList"] as? [String])?.contains("Places/France/Paris") == true, "\(sidecar)")
        #expect(try await CommandRunner.run(["export", short, "--original", "--out-dir", out, "--library", library]).status == 0)
        let copies = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasSuffix(".xmp") }.sorted()
        #expect(copies.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".xmp") }.count == 2)
        let bare = try CommandRunner.temporaryFolder().path
        #expect(try await CommandRunner.run(["export", short, "--no-sidecars", "--out-dir", bare, "--library", library]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bare) == ["iptc-orientation-3.jpg"])
        let original = try Data(contentsOf: URL(fileURLWithPath: out + "/" + copies.first { $0 != "iptc-orientation-3.jpg" }!))
        #expect(original == (try Data(contentsOf: URL(fileURLWithPath: CommandRunner.fixture("photos/iptc-orientation-3.jpg")))))

        // Revert: the original again, the history kept.
        #expect(try await CommandRunner.run(["revert", short, "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["list", "--edited", "--library", library]).stdout.isEmpty)

        // Favourite, hide, album edits.
        #expect(try await CommandRunner.run(["favorite", short, "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["list", "--favorites", "--library", library]).stdout.contains("iptc-orientation-3.jpg"))
        #expect(try await CommandRunner.run(["albums", "create", "Best", "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["albums", "add", "Best", short, "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["list", "--album", "Best", "--library", library]).stdout.contains(short))
        #expect(try await CommandRunner.run(["hide", short, "--library", library]).status == 0)
        #expect(!(try await CommandRunner.run(["list", "--library", library]).stdout.contains(short)))

        // Check: sound.
        let check = try await CommandRunner.run(["check", "--library", library])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("ok: \(photoCount) photos"))

        // Deleting needs --yes.
        let refused = try await CommandRunner.run(["delete", short, "--library", library])
        #expect(refused.status == 64)
        #expect(try await CommandRunner.run(["delete", short, "--yes", "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["check", "--library", library]).status == 0)
    }

    @Test("delete moves photos to Recently Deleted, listed with their days left; recover brings them back; purge and --now delete for good")
    func recentlyDeleted() async throws {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        let photos = try CommandRunner.temporaryFolder().appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for name in ["gps-datetime.jpg", "iptc-date-offset.jpg", "flower.jpg"] {
            try FileManager.default.copyItem(atPath: CommandRunner.fixture("photos/" + name), toPath: photos + "/" + name)
        }
        #expect(try await CommandRunner.run(["import", photos, "--album", "Trip", "--library", library]).status == 0)
        let listed = try #require(try Self.json(try await CommandRunner.run(["list", "--json", "--library", library]).stdout) as? [[String: Any]])
        let ids = listed.compactMap { $0["id"] as? String }
        #expect(ids.count == 3)
        let short = String(ids[1].prefix(8))
        func originals() -> Int {
            (FileManager.default.enumerator(atPath: library + "/originals")?.allObjects as? [String] ?? []).count(where: { $0.contains(".") })
        }
        let stored = originals()

        // Without --yes, nothing moves; with it, the photo goes to Recently Deleted and leaves the list and the album
        let unconfirmed = try await CommandRunner.run(["delete", short, "--library", library])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("Recently Deleted"), "\(unconfirmed.stderr)")
        let deleted = try await CommandRunner.run(["delete", short, "--yes", "--library", library])
        #expect(deleted.status == 0 && deleted.stdout.contains("moved to Recently Deleted \(short)"), "\(deleted.stdout)")
        #expect(!(try await CommandRunner.run(["list", "--library", library]).stdout.contains(short)))
        #expect(!(try await CommandRunner.run(["list", "--album", "Trip", "--library", library]).stdout.contains(short)))
        #expect(originals() == stored, "its file stays")

        // Listed with its days left, in words and in JSON
        let shown = try await CommandRunner.run(["recently-deleted", "--library", library])
        #expect(shown.status == 0 && shown.stdout.contains(short) && shown.stdout.contains("30 days left"), "\(shown.stdout)")
        let json = try #require(
            try Self.json(try await CommandRunner.run(["recently-deleted", "list", "--json", "--library", library]).stdout) as? [[String: Any]])
        #expect(json.count == 1 && json.first?["id"] as? String == ids[1] && json.first?["daysLeft"] as? Int == 30)
        #expect(json.first?["trashedDate"] as? String != nil)
        let sixty = try await CommandRunner.run(["recently-deleted", "--recently-deleted-days", "60", "--library", library])
        #expect(sixty.stdout.contains("60 days left"), "\(sixty.stdout)")
        #expect(try await CommandRunner.run(["recently-deleted", "--recently-deleted-days", "0", "--library", library]).status == 64)
        let fromEnvironment = try CommandRunner.runBlocking(
            ["recently-deleted", "--library", library], environment: ["SEPIA_RECENTLY_DELETED_DAYS": "7"])
        #expect(fromEnvironment.stdout.contains("7 days left"), "\(fromEnvironment.stdout)")
        // A deleted photo cannot be changed until it is recovered
        let favourite = try await CommandRunner.run(["favorite", short, "--library", library])
        #expect(favourite.status == 64 && favourite.stderr.contains("Recently Deleted"), "\(favourite.stderr)")

        // Recover: back in the list and in its album; recovering one that is not deleted is refused
        #expect(try await CommandRunner.run(["recently-deleted", "recover", "--library", library]).status == 64)
        let recovered = try await CommandRunner.run(["recently-deleted", "recover", short, "--library", library])
        #expect(recovered.status == 0 && recovered.stdout.contains("recovered \(short)"), "\(recovered.stderr)")
        #expect(try await CommandRunner.run(["list", "--album", "Trip", "--library", library]).stdout.contains(short))
        #expect(try await CommandRunner.run(["recently-deleted", "recover", short, "--library", library]).status == 64)

        // Purge: only what was deleted 30 days ago or more (here, a deletion made with a clock 40 days back)
        var configuration = LibraryConfiguration(watchesMemoryPressure: false)
        configuration.clock = { Date().addingTimeInterval(-40 * 86_400) }
        let old = try PhotoLibrary.open(at: library, configuration: configuration)
        try await old.performChanges { $0.deleteAssets([ids[0]]) }
        old.close()
        #expect(try await CommandRunner.run(["delete", short, "--yes", "--library", library]).status == 0)
        let purge = try await CommandRunner.run(["recently-deleted", "purge", "--json", "--library", library])
        #expect(purge.status == 0)
        #expect((try Self.json(purge.stdout) as? [String: Any])?["purged"] as? [String] == [ids[0]], "\(purge.stdout)")
        #expect(originals() == stored - 1)
        let nothing = try await CommandRunner.run(["recently-deleted", "purge", "--library", library])
        #expect(nothing.status == 0 && nothing.stderr.contains("nothing has been in Recently Deleted for 30 days"), "\(nothing.stderr)")

        // Importing the deleted photo again, from another folder, recovers it
        let name = try #require(listed[1]["filename"] as? String)
        let copy = try CommandRunner.temporaryFolder().appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: copy)
        let again = try await CommandRunner.run(["import", copy, "--library", library])
        #expect(again.status == 0 && again.stdout.contains("1 recovered from Recently Deleted"), "\(again.stdout)")
        #expect(try await CommandRunner.run(["recently-deleted", "--library", library]).stdout.isEmpty)

        // --now deletes for good, from the library or Recently Deleted
        #expect(try await CommandRunner.run(["delete", String(ids[2].prefix(8)), "--now", "--library", library]).status == 64)
        let now = try await CommandRunner.run(["delete", String(ids[2].prefix(8)), "--now", "--yes", "--library", library])
        #expect(now.status == 0 && now.stdout.contains("deleted for good"), "\(now.stdout)")
        #expect(try await CommandRunner.run(["list", "--library", library]).stdout.split(separator: "\n").count == 1)
        #expect(try await CommandRunner.run(["check", "--library", library]).status == 0)
    }

    @Test("edit --auto and --adjust set the Adjust sliders before the look; a look takes --intensity; bad sliders are refused")
    func adjust() async throws {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        // A dark photo: encoded values from 3 to 60.
        var bitmap = Bitmap(width: 120, height: 80, layout: .rgb)
        for i in 0..<bitmap.bytes.count { bitmap.bytes[i] = UInt8(3 + (i / 3 % 120) * 57 / 119) }
        let dark = try CommandRunner.temporaryFolder().appendingPathComponent("dark.png").path
        try Data(ImageEncoding.encode(bitmap, as: .png, options: EncodeOptions())).write(to: URL(fileURLWithPath: dark))
        #expect(try await CommandRunner.run(["import", dark, "--library", library]).status == 0)
        let listed = try #require(try Self.json(try await CommandRunner.run(["list", "--json", "--library", library]).stdout) as? [[String: Any]])
        let id = try #require(listed.first?["id"] as? String)

        let edit = try await CommandRunner.run([
            "edit", id, "CIPhotoEffectNoir", "--intensity", "0.4", "--auto", "--adjust", "warmth=0.2", "--library", library,
        ])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains("CIExposureAdjust") && edit.stdout.hasSuffix("CITemperatureAndTint → CIPhotoEffectNoir\n"), "\(edit.stdout)")
        let history = try #require(
            try Self.json(try await CommandRunner.run(["history", id, "--library", library, "--json"]).stdout) as? [[String: Any]])
        let recipe = try EditRecipe.decode(Data(try #require(history.last?["recipe"] as? String).utf8))
        #expect(recipe.formatVersion == "2")
        let (values, count) = AdjustmentValues.read(recipe.steps)
        #expect(count == recipe.steps.count - 1 && values["exposure"] > 0.3 && abs(values["warmth"] - 0.2) < 1e-9, "\(values.positions)")
        #expect(recipe.steps.last == EditRecipe.Step(filter: "CIPhotoEffectNoir", parameters: [:], intensity: Double(Float(0.4))))

        let unknown = try await CommandRunner.run(["edit", id, "--adjust", "warmness=0.2", "--library", library])
        #expect(unknown.status == 64 && unknown.stderr.contains("no Adjust slider 'warmness'"), "\(unknown.stderr)")
        let range = try await CommandRunner.run(["edit", id, "--adjust", "sharpness=-1", "--library", library])
        #expect(range.status == 64 && range.stderr.contains("from 0 to 1"), "\(range.stderr)")
    }

    @Test("errors name what failed: unknown photos, ambiguous prefixes, bad filters, a damaged library")
    func errors() async throws {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        #expect(try await CommandRunner.run(["import", CommandRunner.fixture("photos/gps-datetime.jpg"), "--library", library]).status == 0)
        let unknown = try await CommandRunner.run(["edit", "ffffffff", "CISepiaTone", "--library", library])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("ffffffff") && unknown.stderr.contains("sepia list"))
        let badFilter = try await CommandRunner.run(["edit", "ffff", "CINothing", "--library", library])
        #expect(badFilter.status == 64)

        // Damage an original: check fails with 65 and says which file.
        let listed = try #require(try Self.json(try await CommandRunner.run(["list", "--json", "--library", library]).stdout) as? [[String: Any]])
        let hash = try #require(listed.first?["contentHash"] as? String)
        let path = library + "/originals/" + hash.prefix(2) + "/" + hash + ".jpg"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 10] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: path))
        let check = try await CommandRunner.run(["check", "--library", library])
        #expect(check.status == 65)
        #expect(check.stdout.contains(hash) && check.stdout.contains("SHA-256"))
    }
}
