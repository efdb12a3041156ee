import Foundation
import Testing

/// `sepia metadata`, `sepia info PHOTO`, `sepia list --keyword`, and the edited date and place in exported
/// files, read back by exiftool as an independent reader.
@Suite(.serialized) struct MetadataCommandTests {
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// exiftool's numeric reading of `tags` in `file`.
    static func exif(_ file: String, _ tags: [String]) throws -> [String: Any] {
        let result = try CommandRunner.runBlocking(
            ["-json", "-n"] + tags.map { "-" + $0 } + [file], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        #expect(result.status == 0, "\(result.stderr)")
        let list = try #require(try json(result.stdout) as? [[String: Any]])
        return list.first ?? [:]
    }

    /// Imports the corpus photos `names` into a new library; returns it and the photos' short identifiers by name.
    static func library(with names: [String]) async throws -> (library: String, ids: [String: String]) {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        let imported = try await CommandRunner.run(["import"] + names.map { CommandRunner.fixture("photos/" + $0) } + ["--library", library])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try #require(try json(try await CommandRunner.run(["list", "--library", library, "--json"]).stdout) as? [[String: Any]])
        var ids: [String: String] = [:]
        for asset in listed { ids[asset["filename"] as? String ?? ""] = String((asset["id"] as? String ?? "").prefix(8)) }
        return (library, ids)
    }

    @Test("set title, keywords, rating, date with zone and place; info shows the file's values; list finds by keyword")
    func setShowAndFind() async throws {
        let (library, ids) = try await Self.library(with: ["flower.jpg", "gps-datetime.jpg"])
        let flower = try #require(ids["flower.jpg"])

        let set = try await CommandRunner.run([
            "metadata", flower, "--title", "Spring", "--caption", "In the garden", "--keyword", "Places|Japan|Kyoto", "--keyword",
            "Flowers", "--rating", "4", "--date", "2021-04-05T09:10:11+09:00", "--location", "35.0116,135.7681,50", "--library", library,
            "--json",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let asset = try #require((try Self.json(set.stdout) as? [[String: Any]])?.first)
        #expect(asset["title"] as? String == "Spring" && asset["rating"] as? Int == 4)
        #expect(asset["keywords"] as? [String] == ["Places|Japan|Kyoto", "Flowers"])
        #expect(asset["creationDate"] as? String == "2021-04-05T09:10:11+09:00")
        #expect(asset["creationDateEdited"] as? Bool == true && asset["locationEdited"] as? Bool == true)
        #expect((asset["file"] as? [String: Any])?["creationDate"] as? String == "2003-12-14T12:01:44")

        // info on the photo shows the edited values and the file's own
        let info = try await CommandRunner.run(["info", flower, "--library", library])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Spring") && info.stdout.contains("★★★★☆"), "\(info.stdout)")
        #expect(info.stdout.contains("2021-04-05T09:10:11+09:00 (adjusted)"), "\(info.stdout)")
        #expect(info.stdout.contains("file date") && info.stdout.contains("2003-12-14T12:01:44"), "\(info.stdout)")
        #expect(info.stdout.contains("35.011600, 135.768100, 50.0 m (adjusted)") && info.stdout.contains("file place  none"), "\(info.stdout)")
        // and info on a file still reads the file
        let file = try await CommandRunner.run(["info", CommandRunner.fixture("photos/flower.jpg")])
        #expect(file.status == 0 && file.stdout.contains("Canon"), "\(file.stderr)")

        // list finds by keyword, hierarchy level, text and rating
        for (arguments, expected) in [
            (["--keyword", "japan"], 1), (["--keyword", "Places|Japan"], 1), (["--keyword", "Osaka"], 0), (["--search", "garden"], 1),
            (["--min-rating", "4"], 1), (["--min-rating", "5"], 0),
        ] {
            let found = try await CommandRunner.run(["list", "--library", library] + arguments)
            #expect(found.stdout.split(separator: "\n").count == expected, "\(arguments): \(found.stdout)")
        }

        // keywords added and removed; title cleared
        let more = try await CommandRunner.run([
            "metadata", flower, "--add-keyword", "flowers", "--add-keyword", "Spring", "--remove-keyword", "places|japan|kyoto", "--clear-title",
            "--library", library, "--json",
        ])
        let changed = try #require((try Self.json(more.stdout) as? [[String: Any]])?.first)
        #expect(changed["keywords"] as? [String] == ["Flowers", "Spring"] && changed["title"] == nil)

        // revert gives back the file's date and place
        let reverted = try await CommandRunner.run(["metadata", flower, "--revert-date", "--revert-location", "--library", library, "--json"])
        let back = try #require((try Self.json(reverted.stdout) as? [[String: Any]])?.first)
        #expect(back["creationDate"] as? String == "2003-12-14T12:01:44" && back["latitude"] == nil)
        #expect(back["creationDateEdited"] as? Bool == false && back["locationEdited"] as? Bool == false)
    }

    @Test("--shift moves several photos by one interval, each in its own zone, or into a new one; --time-zone keeps clock times")
    func shift() async throws {
        let (library, ids) = try await Self.library(with: ["flower.jpg", "iptc-date-offset.jpg"])
        let both = [try #require(ids["flower.jpg"]), try #require(ids["iptc-date-offset.jpg"])]
        func dates() async throws -> [String] {
            let listed = try #require(
                try Self.json(try await CommandRunner.run(["info", "--json", "--library", library] + both).stdout) as? [[String: Any]])
            return listed.map { $0["creationDate"] as? String ?? "" }
        }
        #expect(try await dates() == ["2003-12-14T12:01:44", "2022-01-10T15:15:44-04:00"])
        let shifted = try await CommandRunner.run(["metadata"] + both + ["--shift", "+1h30m", "--library", library])
        #expect(shifted.status == 0, "\(shifted.stderr)")
        #expect(try await dates() == ["2003-12-14T13:31:44", "2022-01-10T16:45:44-04:00"])
        _ = try await CommandRunner.run(["metadata"] + both + ["--shift", "-90m", "--time-zone", "+01:00", "--library", library])
        #expect(try await dates() == ["2003-12-14T12:01:44+01:00", "2022-01-10T15:15:44+01:00"])
        _ = try await CommandRunner.run(["metadata"] + both + ["--time-zone", "-05:30", "--library", library])
        #expect(try await dates() == ["2003-12-14T12:01:44-05:30", "2022-01-10T15:15:44-05:30"])
    }

    @Test(
        "bad values get a message naming the field and change nothing",
        arguments: [
            (["--rating", "9"], "rating"),
            (["--keyword", "a||b"], "empty level"),
            (["--date", "2024-13-01T00:00"], "out of range"),
            (["--time-zone", "+15:00"], "14:00"),
            (["--location", "91,0"], "latitude"),
            (["--shift", "soon"], "interval"),
            (["--title", "a", "--clear-title"], "not both"),
        ])
    func validation(arguments: [String], message: String) async throws {
        let (library, ids) = try await Self.library(with: ["flower.jpg"])
        let flower = try #require(ids["flower.jpg"])
        let result = try await CommandRunner.run(["metadata", flower, "--library", library] + arguments)
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let asset = try #require(
            (try Self.json(try await CommandRunner.run(["info", flower, "--json", "--library", library]).stdout) as? [[String: Any]])?.first)
        #expect(asset["creationDateEdited"] as? Bool == false && asset["rating"] as? Int == 0 && asset["title"] == nil)
    }

    @Test("export writes the edited date, zone and place into the EXIF, keeps the other tags; --original stays byte for byte")
    func exportEXIF() async throws {
        let (library, ids) = try await Self.library(with: ["flower.jpg", "no-date.jpg", "gps-datetime.jpg"])
        let flower = try #require(ids["flower.jpg"])
        let bare = try #require(ids["no-date.jpg"])
        let gps = try #require(ids["gps-datetime.jpg"])
        _ = try await CommandRunner.run([
            "metadata", flower, "--date", "2021-04-05T09:10:11.250+09:00", "--location", "-33.8568,151.2153,-12.5", "--library", library,
        ])
        _ = try await CommandRunner.run([
            "metadata", bare, "--date", "1999-12-31T23:59:58-03:30", "--location", "48.8584,2.2945", "--library", library,
        ])
        _ = try await CommandRunner.run(["metadata", gps, "--remove-location", "--library", library])
        let out = try CommandRunner.temporaryFolder().path
        let exported = try await CommandRunner.run(["export", flower, bare, gps, "--out-dir", out, "--library", library])
        #expect(exported.status == 0, "\(exported.stderr)")

        // A camera JPEG: the new date and place, and its camera, maker note and thumbnail still readable
        let tags = [
            "DateTimeOriginal", "OffsetTimeOriginal", "SubSecTimeOriginal", "GPSLatitude", "GPSLongitude", "GPSAltitude", "Make", "Model",
            "CanonFirmwareVersion", "ThumbnailLength", "Warning",
        ]
        let canon = try Self.exif(out + "/flower.jpg", tags)
        #expect(canon["DateTimeOriginal"] as? String == "2021:04:05 09:10:11")
        #expect(canon["OffsetTimeOriginal"] as? String == "+09:00")
        #expect("\(canon["SubSecTimeOriginal"] ?? "")" == "250")
        #expect(abs((canon["GPSLatitude"] as? Double ?? 0) - -33.8568) < 1e-5 && abs((canon["GPSLongitude"] as? Double ?? 0) - 151.2153) < 1e-5)
        #expect(abs((canon["GPSAltitude"] as? Double ?? 0) - -12.5) < 1e-6)
        #expect(canon["Make"] as? String == "Canon" && canon["Model"] as? String == "Canon PowerShot S40")
        #expect(canon["CanonFirmwareVersion"] as? String == "Firmware Version 1.10" && canon["ThumbnailLength"] as? Int == 5448)
        #expect(canon["Warning"] == nil, "\(canon)")
        let validated = try CommandRunner.runBlocking(
            ["-validate", "-s", "-s", "-s", out + "/flower.jpg"], executable: URL(fileURLWithPath: "/usr/bin/exiftool"))
        #expect(validated.stdout.hasPrefix("OK"), "\(validated.stdout)")

        // A JPEG without EXIF gets one
        let plain = try Self.exif(out + "/no-date.jpg", tags)
        #expect(plain["DateTimeOriginal"] as? String == "1999:12:31 23:59:58" && plain["OffsetTimeOriginal"] as? String == "-03:30")
        #expect(abs((plain["GPSLatitude"] as? Double ?? 0) - 48.8584) < 1e-5)
        // A removed location is removed from the export; the date, not edited, is the file's
        let unplaced = try Self.exif(out + "/gps-datetime.jpg", tags)
        #expect(unplaced["GPSLatitude"] == nil && unplaced["GPSLongitude"] == nil)

        // The pixels are the original's, byte for byte after the EXIF
        let original = try Data(contentsOf: URL(fileURLWithPath: CommandRunner.fixture("photos/flower.jpg")))
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: out + "/flower.jpg"))
        #expect(original.suffix(20_000) == rewritten.suffix(20_000))

        // --original: the file as it came
        let originals = try CommandRunner.temporaryFolder().path
        _ = try await CommandRunner.run(["export", flower, "--original", "--out-dir", originals, "--library", library])
        #expect(try Data(contentsOf: URL(fileURLWithPath: originals + "/flower.jpg")) == original)

        // An edited photo's render carries the date, zone and place too
        _ = try await CommandRunner.run(["edit", flower, "CISepiaTone", "--library", library])
        let renders = try CommandRunner.temporaryFolder().path
        _ = try await CommandRunner.run(["export", flower, "--out-dir", renders, "--library", library])
        let render = try Self.exif(renders + "/flower.jpg", tags)
        #expect(render["DateTimeOriginal"] as? String == "2021:04:05 09:10:11" && render["OffsetTimeOriginal"] as? String == "+09:00")
        #expect(abs((render["GPSLatitude"] as? Double ?? 0) - -33.8568) < 1e-5)
    }
}
