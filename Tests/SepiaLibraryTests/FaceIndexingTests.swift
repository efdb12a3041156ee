import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import SepiaVision
import Synchronization
import Testing

@testable import SepiaLibrary

/// Indexing real photos into people, end to end: import, the preview searched with dlib, the faces recorded and
/// grouped. Who is who comes from the sets themselves (dlib's examples: a folder per person; bald_guys.jpg: four
/// people, six faces each), never from a recorded output.
@Suite(.serialized) struct FaceIndexingTests {
    static let dlibExamples = "/usr/share/doc/libdlib19.1/examples"

    @Test("the server's search (asked for in the background) runs at a nice value of 10 with background renders; an interactive one as its caller")
    func backgroundSearchIsNiced() async throws {
        @Sendable func seen() -> (Int32, RenderPriority) { (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), RenderPriority.current) }
        let own = seen().0
        let interactive = try await PhotoLibrary.onFaceThread { seen() }
        let background = try await RenderPriority.$current.withValue(.background) { try await PhotoLibrary.onFaceThread { seen() } }
        #expect(interactive == (own, .interactive))
        #expect(background == (max(own, PhotoLibrary.backgroundNiceness), .background))
        #expect(seen().0 == own, "the caller's thread keeps its nice value")
    }

    /// `files` imported into a new library, and indexed.
    static func indexedLibrary(_ files: [String], duplicates: Int = 0) async throws -> (PhotoLibrary, [String: String]) {
        let library = try TestLibrary.open()
        let importer = AssetImporter(library: library, concurrency: 2, batchSize: 32)
        let imported = Mutex<[String: String]>([:])
        let summary = try await importer.importFiles(files) { item, _ in
            if let id = item.assetID { imported.withLock { $0[id] = item.path } }
        }
        #expect(summary.imported == files.count - duplicates && summary.duplicates == duplicates, "\(summary.failed) failed")
        let fileOf = imported.withLock { $0 }
        let report = try await library.indexFaces(concurrency: 2)
        #expect(report.indexed == files.count - duplicates)
        #expect(report.failures.isEmpty, "\(report.failures)")
        return (library, fileOf)
    }

    /// The people of `library` as sets of files, each person's files' labels (by `label`).
    static func peopleLabels(_ library: PhotoLibrary, _ fileOf: [String: String], label: (String) -> String) throws -> [[String]] {
        try library.people().map { person in try library.faces(of: person.id).map { label(fileOf[$0.assetID] ?? "?") } }
    }

    @Test("johns/: 55 photos (54 different: John Shimkus's folder has one photo twice) make exactly 5 people, none mixing two")
    func johns() async throws {
        let folder = Self.dlibExamples + "/johns"
        let people = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let files = try people.flatMap { person in
            try FileManager.default.contentsOfDirectory(atPath: folder + "/" + person).sorted().map { folder + "/" + person + "/" + $0 }
        }
        #expect(files.count == 55)
        let (library, fileOf) = try await Self.indexedLibrary(files, duplicates: 1)
        defer { library.close() }
        let groups = try Self.peopleLabels(library, fileOf) { ($0 as NSString).deletingLastPathComponent }
        #expect(groups.count == 5)
        // Every imported photo of a folder is in its person: 11 each, 10 of the folder with a copy.
        let importedPerFolder = Dictionary(grouping: fileOf.values, by: { ($0 as NSString).deletingLastPathComponent }).mapValues(\.count)
        for group in groups {
            #expect(Set(group).count == 1, "a person mixes \(Set(group))")
            #expect(group.count == importedPerFolder[group[0]])
        }
        let status = try library.faceIndexStatus(algorithm: FaceIndexing.algorithm)
        #expect(status.indexedAssets == 54 && status.assetsToIndex == 0 && status.faces == 54 && status.people == 5)
    }

    @Test("bald_guys.jpg's 24 faces, each cut out as a photo of its own, make 4 people of 6")
    func baldGuys() async throws {
        let photo = try ImageRequestHandler(path: Self.dlibExamples + "/faces/bald_guys.jpg")
        let faces = try DetectFaceRectanglesRequest().perform(on: photo)
        #expect(faces.count == 24)
        let folder = TestLibrary.temporaryFolder("bald-guys")
        let extent = photo.image.extent
        var files: [String] = []
        for (index, face) in faces.enumerated() {
            let box = face.boundingBox.topLeftOrigin
            let (w, h) = (Double(extent.width), Double(extent.height))
            // The face and as much again around it.
            let crop = IntRect(
                minX: max(0, Int((box.x - box.width / 2) * w)), minY: max(0, Int((box.y - box.height / 2) * h)),
                maxX: min(extent.width, Int((box.x + box.width * 1.5) * w)), maxY: min(extent.height, Int((box.y + box.height * 1.5) * h)))
            let bitmap = try RenderContext().renderBitmapSynchronously(photo.image.cropped(to: crop).movedToOrigin(), layout: .rgb)
            let path = folder + "/face-\(index).jpg"
            try Data(try ImageEncoding.encode(bitmap, as: .jpeg)).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let (library, fileOf) = try await Self.indexedLibrary(files)
        defer { library.close() }
        let people = try library.people()
        #expect(people.count == 4)
        #expect(people.allSatisfy { $0.faceCount == 6 })
        #expect(try Self.peopleLabels(library, fileOf) { $0 }.joined().count == 24)
    }

    @Test("Obama's photos, turned by EXIF, cut at the edge, small in a 24-megapixel scene, and as HEIC and RAW, are one person; Biden is not")
    func obama() async throws {
        let corpus = TestLibrary.corpus.path + "/faces/"
        let folder = TestLibrary.temporaryFolder("obama")
        var files = ["obama.jpg", "obama2.jpg", "obama3.jpg", "obama_partial_face.jpg", "obama_partial_face2.jpg", "biden.jpg"].map {
            corpus + $0
        }
        // Stored turned a quarter, with Orientation 6 to show it upright.
        let turned = folder + "/turned.jpg"
        #expect(try ExternalProgram.run("/usr/bin/jpegtran", ["-rotate", "270", "-trim", "-outfile", turned, corpus + "obama2.jpg"]).status == 0)
        #expect(try ExternalProgram.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", turned]).status == 0)
        // 600 pixels wide in a 6000 × 4000 scene.
        let scene = folder + "/scene.jpg"
        let convert = try ExternalProgram.run(
            "/usr/bin/convert",
            ["-size", "6000x4000", "gradient:#8090a0-#c0b090", corpus + "obama3.jpg", "-geometry", "600x+3700+1900", "-composite", scene])
        #expect(convert.status == 0, "\(convert.errors)")
        // A HEIC coded by heif-enc, and a DNG whose mosaic scripts/testdata-raw made from obama2.jpg: the RAW is
        // developed before it is searched.
        let heic = folder + "/obama.heic"
        let heifEnc = try ExternalProgram.run("/usr/bin/heif-enc", ["-q", "85", "-o", heic, corpus + "obama.jpg"])
        #expect(heifEnc.status == 0, "\(heifEnc.errors)")
        let raw = TestLibrary.fixture("raw-tiff/faces/obama2.dng")
        files += [turned, scene, heic, raw]
        let (library, fileOf) = try await Self.indexedLibrary(files)
        defer { library.close() }
        let groups = try Self.peopleLabels(library, fileOf) { ($0 as NSString).lastPathComponent }
        #expect(groups.count == 1)
        let obama = Set(groups.first ?? [])
        #expect(
            obama == [
                "obama.jpg", "obama2.jpg", "obama3.jpg", "obama_partial_face.jpg", "obama_partial_face2.jpg", "turned.jpg", "scene.jpg",
                "obama.heic", "obama2.dng",
            ])
        let formats = try library.fetchAssets().allObjects().map { (fileOf[$0.id] ?? "?", $0.originalFormat) }
        #expect(formats.contains { $0 == (heic, .heic) } && formats.contains { $0 == (raw, .cameraRAW) }, "\(formats)")
        #expect(
            try library.unassignedFaces().map { ($0.assetID, fileOf[$0.assetID].map { ($0 as NSString).lastPathComponent }) }.map(\.1) == [
                "biden.jpg"
            ])

        // Faces off deletes every face and person, and indexing then records nothing.
        try library.setFindsFaces(false)
        #expect(try library.people().isEmpty && library.unassignedFaces().isEmpty)
        #expect(try await library.indexFaces(concurrency: 1).facesOff)
        #expect(try library.faceIndexStatus(algorithm: FaceIndexing.algorithm).faces == 0)
        try library.setFindsFaces(true)
        #expect(try await library.indexFaces(concurrency: 2).indexed == files.count)
        #expect(try library.people().count == 1)
    }

    @Test("a damaged model stops indexing with an error naming the file, and nothing is recorded")
    func damagedModel() async throws {
        let models = TestLibrary.temporaryFolder("models")
        for file in [FaceModels.landmarks, FaceModels.descriptor] {
            try FileManager.default.copyItem(atPath: FaceModels.default.path(of: file), toPath: models + "/" + file.name)
        }
        let damaged = models + "/" + FaceModels.landmarks.name
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[bytes.count - 10] ^= 1
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let library = try TestLibrary.open()
        defer { library.close() }
        _ = try await AssetImporter(library: library).importFiles([TestLibrary.corpus.path + "/faces/obama.jpg"])
        let error = await #expect(throws: VisionError.self) {
            try await library.indexFaces(indexing: FaceIndexing(models: FaceModels(directory: models)))
        }
        #expect(error?.code == .modelDamaged)
        #expect(error?.message.contains(damaged) == true)
        let status = try library.faceIndexStatus(algorithm: FaceIndexing.algorithm)
        #expect(status.indexedAssets == 0 && status.faces == 0 && status.assetsToIndex == 1)
    }

    @Test("an edit that turns a sideways photo upright, or crops one, has its faces found again where the photo now shows them")
    func editedPhotos() async throws {
        let corpus = TestLibrary.corpus.path + "/faces/"
        // obama2.jpg stored a quarter turn anticlockwise, with no orientation to undo it: the face lies on its side.
        let sideways = TestLibrary.temporaryFolder("sideways") + "/sideways.jpg"
        #expect(try ExternalProgram.run("/usr/bin/jpegtran", ["-rotate", "270", "-trim", "-outfile", sideways, corpus + "obama2.jpg"]).status == 0)
        let (library, fileOf) = try await Self.indexedLibrary(["obama.jpg", "obama3.jpg", "obama_partial_face.jpg"].map { corpus + $0 } + [sideways])
        defer { library.close() }
        let person = try #require(try library.people().first)
        try library.renamePerson(person.id, to: "Barack")
        let assets = try library.fetchAssets().allObjects()
        let turned = try #require(assets.first { fileOf[$0.id] == sideways })
        #expect(try library.faces(in: turned.id).isEmpty)

        // A quarter turn clockwise, (x, y) to (height - y, x), stands it upright.
        func recipe(_ step: String) throws -> EditRecipe {
            try EditRecipe.decode(Data((#"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": ["# + step + "]}").utf8))
        }
        try await library.edit(
            turned,
            recipe: try recipe(#"{"filter": "CIAffineTransform", "parameters": {"inputTransform": [0, 1, -1, 0, \#(turned.pixelHeight), 0]}}"#))
        // The left half of obama.jpg, cropped to the right half of its width.
        let cropped = try #require(assets.first { fileOf[$0.id] == corpus + "obama.jpg" })
        let before = try #require(try library.faces(in: cropped.id).first)
        let left = cropped.pixelWidth / 4
        try await library.edit(
            cropped,
            recipe: try recipe(
                #"{"filter": "CICrop", "parameters": {"inputRectangle": [\#(left), 0, \#(cropped.pixelWidth - left), \#(cropped.pixelHeight)]}}"#))
        #expect(try library.faceIndexStatus(algorithm: FaceIndexing.algorithm).assetsToIndex == 2)
        #expect(try await library.indexFaces(concurrency: 1).indexed == 2)

        let upright = try #require(try library.faces(in: turned.id).first)
        #expect(upright.personID == person.id)
        let after = try #require(try library.faces(in: cropped.id).first)
        #expect(after.id == before.id || after.personID == person.id)
        // The face's centre: x in the crop = (x - 1/4) / (3/4) of the original's width; y unchanged (within the
        // detector's step, 8 pixels of the searched image).
        let (x0, y0) = (before.boundingBox.x + before.boundingBox.width / 2, before.boundingBox.y + before.boundingBox.height / 2)
        let (x1, y1) = (after.boundingBox.x + after.boundingBox.width / 2, after.boundingBox.y + after.boundingBox.height / 2)
        #expect(abs(x1 - (x0 - 0.25) / 0.75) < 0.03)
        #expect(abs(y1 - y0) < 0.03)
        #expect(try library.person(person.id).name == "Barack")
        #expect(try library.person(person.id).faceCount == 4)
    }
}
