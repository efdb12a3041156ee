import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import SepiaXMP
import Synchronization
import Testing

@testable import SepiaLibrary

/// Importing photos with the XMP sidecars digiKam, Lightroom and darktable write beside them, written here as
/// those tools write them (digiKam: `NAME.ext.xmp` with `digiKam:TagsList`; Lightroom: `NAME.xmp` with
/// `lr:hierarchicalSubject` and `crs:` crop), and hostile ones.
@Suite struct SidecarImportTests {
    static func packet(_ description: String, _ body: String = "") -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:digiKam="http://www.digikam.org/ns/1.0/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
            xmlns:sepia="http://ns.sepia.org/xmp/1.0/"
            \(description)>
          \(body)
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    static let digiKam = packet(
        #"xmp:Rating="4" exif:DateTimeOriginal="2019-05-04T10:20:30+02:00" exif:GPSLatitude="48,51.4N" exif:GPSLongitude="2,21.05E""#,
        """
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Notre-Dame at dawn</rdf:li></rdf:Alt></dc:title>
        <dc:description><rdf:Alt><rdf:li xml:lang="x-default">From the Pont de la Tournelle</rdf:li></rdf:Alt></dc:description>
        <dc:subject><rdf:Bag><rdf:li>Paris</rdf:li><rdf:li>Dawn</rdf:li></rdf:Bag></dc:subject>
        <digiKam:TagsList><rdf:Seq><rdf:li>Places/France/Paris</rdf:li><rdf:li>Dawn</rdf:li></rdf:Seq></digiKam:TagsList>
        """)

    static let lightroom = packet(
        #"xmp:Rating="2" crs:HasCrop="True" crs:CropTop="0" crs:CropLeft="0.25" crs:CropBottom="0.5" crs:CropRight="0.75" crs:CropAngle="0""#,
        """
        <dc:subject><rdf:Bag><rdf:li>Anna</rdf:li></rdf:Bag></dc:subject>
        <lr:hierarchicalSubject><rdf:Bag><rdf:li>People|Anna</rdf:li></rdf:Bag></lr:hierarchicalSubject>
        """)

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func write(jpeg seed: Int, width: Int = 120, height: Int = 80, to path: String) throws {
        try TestLibrary.uniqueJPEG(seed, width: width, height: height).write(to: URL(fileURLWithPath: path))
        // A modification time far from the sidecars' dates: the file's own date, when it has no EXIF.
        var times = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test(
        "a camera folder's sidecars give ratings, titles, captions, keywords, dates, places and crops; a hostile sidecar is a warning, an orphan a skip"
    )
    func folder() async throws {
        let folder = TestLibrary.temporaryFolder("sidecars")
        try Self.write(jpeg: 1, to: folder + "/dawn.jpg")
        try Self.write(Self.digiKam, to: folder + "/dawn.jpg.xmp")
        try Self.write(jpeg: 2, to: folder + "/anna.jpg")
        try Self.write(Self.lightroom, to: folder + "/anna.xmp")
        // An XML bomb: a DOCTYPE with entities that expand without bound. Refused before any parsing.
        try Self.write(jpeg: 3, to: folder + "/bomb.jpg")
        try Self.write(
            """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
            """ + Self.packet(#"xmp:Rating="5""#, "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">&c;</rdf:li></rdf:Alt></dc:title>"),
            to: folder + "/bomb.jpg.xmp")
        // An external entity, and a sidecar that is not XML at all.
        try Self.write(jpeg: 4, to: folder + "/external.jpg")
        try Self.write(
            #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"#, to: folder + "/external.jpg.xmp")
        try Self.write(jpeg: 5, to: folder + "/broken.jpg")
        try Self.write("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF", to: folder + "/broken.jpg.xmp")
        // A value that is not valid is left out, the rest read: a title over the limit, a good rating.
        try Self.write(jpeg: 6, to: folder + "/long.jpg")
        try Self.write(
            Self.packet(
                #"xmp:Rating="3" exif:DateTimeOriginal="2018-03-04T05:06:07""#,
                "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(String(repeating: "t", count: 600))</rdf:li></rdf:Alt></dc:title>"),
            to: folder + "/long.jpg.xmp")
        try Self.write(Self.digiKam, to: folder + "/orphan.xmp")

        let library = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        let summary = try await AssetImporter(library: library, concurrency: 2).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        let byName = results.withLock { $0 }
        // The sidecars are not files of the import; the one without its photo is skipped with the reason.
        #expect(summary.imported == 6 && summary.skipped == 1 && summary.failed == 0 && summary.total == 7)
        #expect(byName["orphan.xmp"]?.status == .skipped)
        #expect(byName["orphan.xmp"]?.reason?.contains("no photo beside it") == true)

        // digiKam's: everything, the date and place as edits beside the file's own
        let dawnResult = try #require(byName["dawn.jpg"])
        #expect(dawnResult.sidecar == folder + "/dawn.jpg.xmp" && dawnResult.warnings == nil)
        let dawn = try library.asset(try #require(dawnResult.assetID))
        #expect(dawn.rating == 4 && dawn.title == "Notre-Dame at dawn" && dawn.caption == "From the Pont de la Tournelle")
        #expect(dawn.keywords == ["Places|France|Paris", "Dawn"])
        #expect(dawn.creationDate == ISO8601DateFormatter().date(from: "2019-05-04T08:20:30Z") && dawn.creationDateOffset == 7200)
        #expect(dawn.localCreationDate.hour == 10)
        #expect(abs((dawn.location?.latitude ?? 0) - (48 + 51.4 / 60)) < 1e-6)
        #expect(abs((dawn.location?.longitude ?? 0) - (2 + 21.05 / 60)) < 1e-6)
        #expect(dawn.isCreationDateEdited && dawn.isLocationEdited)
        #expect(dawn.fileMetadata?.creationDate == Date(timeIntervalSince1970: 1_500_000_000) && dawn.fileMetadata?.location == nil)
        #expect(!dawn.hasAdjustments)
        // and the library finds it by its keywords, a level of the hierarchy too
        #expect(try library.fetchAssets(FetchOptions(predicate: .keyword("France"))).allObjects().map(\.id) == [dawn.id])

        // Lightroom's NAME.xmp: the hierarchical keyword, the rating, and the crop as an edit (the middle half of
        // the top half: 60 × 40 of 120 × 80)
        let anna = try library.asset(try #require(byName["anna.jpg"]?.assetID))
        #expect(byName["anna.jpg"]?.sidecar == folder + "/anna.xmp")
        #expect(anna.keywords == ["People|Anna"] && anna.rating == 2 && anna.title == nil)
        #expect(anna.hasAdjustments && anna.pixelWidth == 60 && anna.pixelHeight == 40)
        #expect(anna.originalWidth == 120 && anna.originalHeight == 80)
        #expect(!anna.isCreationDateEdited && !anna.isLocationEdited)

        // Hostile and broken sidecars: the photo is imported without them, with a warning naming the sidecar
        for name in ["bomb.jpg", "external.jpg", "broken.jpg"] {
            let result = try #require(byName[name])
            #expect(result.status == .imported && result.sidecar == nil)
            let warning = try #require(result.warnings?.first)
            #expect(warning.contains(name + ".xmp") && warning.contains("imported without it"), "\(warning)")
            let asset = try library.asset(try #require(result.assetID))
            #expect(asset.userMetadata == UserMetadata() && !asset.hasAdjustments)
        }
        #expect(byName["bomb.jpg"]?.warnings?.first?.contains("DOCTYPE") == true)

        // A value over a limit is left out with a warning; the rest is read
        let long = try #require(byName["long.jpg"])
        let longAsset = try library.asset(try #require(long.assetID))
        #expect(longAsset.rating == 3 && longAsset.title == nil)
        // A date without a time zone is taken as such: the time as the camera showed it, the zone unknown
        #expect(longAsset.creationDateOffset == nil && longAsset.localCreationDate.hour == 5 && longAsset.localCreationDate.day == 4)
        #expect(long.warnings?.count == 1, "\(long.warnings ?? [])")
        #expect(long.warnings?.contains { $0.contains("title was left out") } == true)
        #expect(try await library.check().isSound)
    }

    @Test("Sepia's own sidecar brings the edit back: an exported photo's recipe is the imported photo's edit")
    func recipe() async throws {
        let folder = TestLibrary.temporaryFolder("sidecar-recipe")
        try Self.write(jpeg: 7, to: folder + "/mono.jpg")
        let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "CIPhotoEffectMono")])
        let json = String(decoding: recipe.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        try Self.write(Self.packet(#"xmp:Rating="1" sepia:EditRecipe="\#(json)""#), to: folder + "/mono.jpg.xmp")
        // A recipe that is not valid is a warning; the photo comes in unedited.
        try Self.write(jpeg: 8, to: folder + "/bad.jpg")
        try Self.write(Self.packet(#"xmp:Rating="1" sepia:EditRecipe="{&quot;steps&quot;: 3}""#), to: folder + "/bad.jpg.xmp")

        let library = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        _ = try await AssetImporter(library: library).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        let mono = try library.asset(try #require(results.withLock { $0["mono.jpg"]?.assetID }))
        #expect(mono.rating == 1 && mono.hasAdjustments)
        let adjustment = try #require(try library.currentAdjustment(of: mono))
        #expect(try EditRecipe.decode(adjustment.data.data) == recipe)
        let bad = try #require(results.withLock { $0["bad.jpg"] })
        #expect(bad.warnings?.contains { $0.contains("recipe was left out") } == true)
        #expect(try library.asset(try #require(bad.assetID)).hasAdjustments == false)
    }

    @Test("a photo's own XMP gives its rating, title and keywords, but not its Camera Raw crop, which made the photo")
    func embedded() async throws {
        let folder = TestLibrary.temporaryFolder("embedded-xmp")
        // Lightroom's export of a cropped RAW: the packet in it records the crop it applied.
        let exported = folder + "/exported.jpg"
        try FileManager.default.copyItem(atPath: TestLibrary.fixture("photos/xmp_test.jpg"), toPath: exported)
        let tagged = folder + "/tagged.jpg"
        try Self.write(jpeg: 9, to: tagged)
        let tagging = try ExternalProgram.run(
            "/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=5", "-XMP-dc:Title=Harbour", "-XMP-dc:Subject=Boats", tagged])
        try #require(tagging.status == 0, "\(tagging.errors)")

        let library = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        _ = try await AssetImporter(library: library).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        let harbour = try library.asset(try #require(results.withLock { $0["tagged.jpg"]?.assetID }))
        #expect(harbour.rating == 5 && harbour.title == "Harbour" && harbour.keywords == ["Boats"])
        #expect(results.withLock { $0["tagged.jpg"]?.sidecar } == nil)
        let photo = try library.asset(try #require(results.withLock { $0["exported.jpg"]?.assetID }))
        #expect(!photo.hasAdjustments && photo.pixelWidth == 2000 && photo.pixelHeight == 1072)
    }

    @Test("a round trip: an edited photo's render and original, exported with their sidecars, import edited once, rated and dated as before")
    func roundTrip() async throws {
        let first = try TestLibrary.open()
        let id = try await TestLibrary.addPhotos(1, to: first)[0]
        try await first.performChanges { changes in
            changes.setUserMetadata(UserMetadata(title: "Pier", keywords: ["Places|Brest"], rating: 3), for: id)
            changes.setCreationDate(Date(timeIntervalSince1970: 1_650_000_000), offset: 3600, for: id)
        }
        let recipe = EditRecipe(steps: [EditRecipe.Step(filter: "CIPhotoEffectNoir")])
        let edited = try await first.edit(try first.asset(id), recipe: recipe)

        // As `sepia export` writes them: the render with a sidecar saying the recipe is applied, the original with
        // one asking for it
        let folder = TestLibrary.temporaryFolder("round-trip")
        let render = folder + "/pier.jpg"
        let original = folder + "/pier-original.jpg"
        try FileManager.default.copyItem(atPath: try await first.currentPath(of: edited), toPath: render)
        try FileManager.default.copyItem(atPath: try await first.originalPath(of: edited), toPath: original)
        try XMPSidecar.write(try first.sidecarMetadata(for: edited, rendered: true), forPhotoAt: render)
        try XMPSidecar.write(try first.sidecarMetadata(for: edited), forPhotoAt: original)

        let second = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        _ = try await AssetImporter(library: second).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        let fromRender = try second.asset(try #require(results.withLock { $0["pier.jpg"]?.assetID }))
        let fromOriginal = try second.asset(try #require(results.withLock { $0["pier-original.jpg"]?.assetID }))
        for asset in [fromRender, fromOriginal] {
            #expect(asset.userMetadata == UserMetadata(title: "Pier", keywords: ["Places|Brest"], rating: 3))
            #expect(asset.creationDate == Date(timeIntervalSince1970: 1_650_000_000) && asset.creationDateOffset == 3600)
        }
        // The render is not edited a second time; the original gets the edit back
        #expect(!fromRender.hasAdjustments)
        let adjustment = try #require(try second.currentAdjustment(of: fromOriginal))
        #expect(try EditRecipe.decode(adjustment.data.data) == recipe)
    }

    @Test(
        "a RAW+JPEG pair with Lightroom's NAME.xmp: both files read it, and the pair is cropped whichever file came first",
        arguments: [1, 2])
    func pair(concurrency: Int) async throws {
        let folder = TestLibrary.temporaryFolder("sidecar-pair")
        for name in ["IMG_0001.DNG", "IMG_0001.JPG"] {
            try FileManager.default.copyItem(atPath: RAWFixtures.folder("pair") + "/" + name, toPath: folder + "/" + name)
        }
        try Self.write(Self.lightroom, to: folder + "/IMG_0001.xmp")
        let library = try TestLibrary.open()
        let results = Mutex<[ImportItemResult]>([])
        let summary = try await AssetImporter(library: library, concurrency: concurrency, batchSize: 1).importFiles([folder]) {
            result, _ in results.withLock { $0.append(result) }
        }
        #expect(summary.imported == 1 && summary.paired == 1, "\(summary)")
        #expect(results.withLock { $0 }.allSatisfy { $0.sidecar == folder + "/IMG_0001.xmp" && $0.warnings == nil })
        let asset = try #require(try library.fetchAssets().firstObject())
        #expect(asset.mediaSubtypes.contains(.photoRAWPair) && asset.keywords == ["People|Anna"] && asset.rating == 2)
        // The crop is made on the file that came first and shows under it (an edited RAW keeps showing when its
        // JPEG joins): half its width and height
        #expect(asset.hasAdjustments)
        // One at a time, the RAW comes first (the files are sorted): it is cropped, and still shows once its JPEG joins
        if concurrency == 1 { #expect(asset.originalFormat == .cameraRAW) }
        #expect(asset.pixelWidth == asset.originalWidth / 2 && asset.pixelHeight == asset.originalHeight / 2, "\(asset)")
        let types = Set(try library.resources(for: asset).map(\.type))
        #expect(types.isSuperset(of: [.photo, .alternatePhoto]), "\(types)")
        #expect(try await library.check().isSound)
    }

    @Test("a DNG's and a TIFF's own XMP (tag 700, where Lightroom and scanners write it) give their rating, title and keywords")
    func embeddedInRAWAndTIFF() async throws {
        let folder = TestLibrary.temporaryFolder("embedded-raw-tiff")
        let dng = folder + "/DSC_0500.dng"
        let tiff = folder + "/scan-0001.tif"
        try FileManager.default.copyItem(atPath: RAWFixtures.folder("raw") + "/rggb_16bit.dng", toPath: dng)
        try FileManager.default.copyItem(atPath: RAWFixtures.folder("tiff") + "/rgb8_lzw.tif", toPath: tiff)
        for (path, title) in [(dng, "Harbour wall"), (tiff, "Grandmother, 1962")] {
            let tagging = try ExternalProgram.run(
                "/usr/bin/exiftool",
                ["-q", "-overwrite_original", "-XMP-xmp:Rating=4", "-XMP-dc:Title=\(title)", "-XMP-lr:HierarchicalSubject=Family|Archive", path])
            try #require(tagging.status == 0, "\(tagging.errors)")
        }
        let library = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        let summary = try await AssetImporter(library: library).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        #expect(summary.imported == 2, "\(results.withLock { $0 })")
        for (name, title) in [("DSC_0500.dng", "Harbour wall"), ("scan-0001.tif", "Grandmother, 1962")] {
            let asset = try library.asset(try #require(results.withLock { $0[name]?.assetID }))
            #expect(asset.rating == 4 && asset.title == title && asset.keywords == ["Family|Archive"], "\(name): \(asset.userMetadata)")
        }
    }

    @Test("a sidecar of 100 000 attributes and a TIFF whose own XMP has as many are refused unparsed: the photos come in, with a warning saying why")
    func crowdedXMP() async throws {
        let folder = TestLibrary.temporaryFolder("crowded-xmp")
        let elsewhere = TestLibrary.temporaryFolder("crowded-xmp-packet")
        let attributes = (0..<100_000).map { "a:p\($0)=\"1\"" }.joined(separator: " ")
        let hostile = Self.packet(#"xmlns:a="http://ns.example.com/a/1.0/" xmp:Rating="5" "# + attributes)
        try Self.write(jpeg: 7, to: folder + "/crowded.jpg")
        try Self.write(hostile, to: folder + "/crowded.jpg.xmp")
        // The same packet in a TIFF's XMP tag (700), as an upload or a scanner's file could carry it.
        try Self.write(hostile, to: elsewhere + "/packet.xmp")
        let tiff = folder + "/scan.tif"
        try FileManager.default.copyItem(atPath: RAWFixtures.folder("tiff") + "/rgb8_lzw.tif", toPath: tiff)
        let tagging = try ExternalProgram.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP<=" + elsewhere + "/packet.xmp", tiff])
        try #require(tagging.status == 0, "\(tagging.errors)")

        let library = try TestLibrary.open()
        let results = Mutex<[String: ImportItemResult]>([:])
        let summary = try await AssetImporter(library: library).importFiles([folder]) { result, _ in
            results.withLock { $0[(result.path as NSString).lastPathComponent] = result }
        }
        #expect(summary.imported == 2 && summary.failed == 0, "\(results.withLock { $0 })")
        for (name, source) in [("crowded.jpg", "the sidecar crowded.jpg.xmp"), ("scan.tif", "the XMP in the photo")] {
            let result = try #require(results.withLock { $0[name] })
            #expect(result.status == .imported && result.sidecar == nil)
            let warning = try #require(result.warnings?.first, "\(name)")
            #expect(warning.contains(source) && warning.contains("more than 2000 properties"), "\(warning)")
            #expect(try library.asset(try #require(result.assetID)).rating == 0)
        }
    }
}
