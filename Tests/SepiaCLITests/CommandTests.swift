import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@Suite(.serialized) struct CommandTests {
    @Test("info prints format, sizes, orientation and EXIF; --json is machine-readable")
    func info() async throws {
        let photo = CommandRunner.fixture("photos/iptc-orientation-3.jpg")
        let text = try await CommandRunner.run(["info", photo])
        #expect(text.status == 0)
        #expect(text.stdout.contains("JPEG"))
        #expect(text.stdout.contains("orientation 3"))
        #expect(text.stdout.contains("Nokia N70-1"))
        let located = try await CommandRunner.run(["info", CommandRunner.fixture("photos/gps-datetime.jpg")])
        #expect(located.stdout.contains("37.7749"), "\(located.stdout)")

        let json = try await CommandRunner.run(["info", "--json", photo, CommandRunner.fixture("heic-avif/pug.heic")])
        #expect(json.status == 0)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 2)
        #expect(reports[0]["format"] as? String == "jpeg")
        #expect((reports[0]["size"] as? [String: Int])?["width"] == 640)
        #expect(reports[0]["orientation"] as? Int == 3)
        let metadata = try #require(reports[0]["metadata"] as? [String: Any])
        #expect(metadata["cameraModel"] as? String == "N70-1")
        #expect(reports[1]["colorSpace"] as? String == "Display P3")
    }

    @Test("sepia runs the image commands itself and hands the others, and help, to sepia-library beside it")
    func handOff() async throws {
        let help = try await CommandRunner.run(["--help"])
        #expect(help.status == 0)
        for command in ["thumbnail", "import", "serve", "library"] {
            #expect(help.stdout.contains("  \(command) "), "\(command) missing from \(help.stdout)")
        }
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = try await CommandRunner.run(["list", "--library", folder.appendingPathComponent("library").path])
        #expect(listed.status == 0, "\(listed.stderr)")

        // Alone in a folder, sepia still runs the image commands, and says what is missing for the others.
        let alone = folder.appendingPathComponent("sepia")
        try FileManager.default.copyItem(at: CommandRunner.executable, to: alone)
        let photo = CommandRunner.fixture("photos/iptc-orientation-3.jpg")
        #expect(try CommandRunner.runBlocking(["info", photo], executable: alone).status == 0)
        let lost = try CommandRunner.runBlocking(["list", "--library", folder.path], executable: alone)
        #expect(lost.status == 70)
        #expect(lost.stderr.contains("sepia-library"), "\(lost.stderr)")
        #expect(lost.stderr.contains("same folder"), "\(lost.stderr)")
    }

    @Test("libheif, libde265, libtiff, LibRaw and Exempi are loaded when a file needs them, not when a command starts; HEIC still reads")
    func heifLoadedOnUse() async throws {
        let library = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("sepia-library")
        for executable in [CommandRunner.executable, library] {
            let linked = try CommandRunner.runBlocking([executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(linked.stdout.contains("libc.so"), "\(linked.stdout)")
            for name in ["libheif", "libde265", "libx265", "libaom", "libdav1d", "libraw", "libtiff", "libexempi"] {
                #expect(!linked.stdout.contains(name), "\(executable.lastPathComponent) links \(name) at start")
            }
        }
        let heic = try await CommandRunner.run(["info", "--json", CommandRunner.fixture("heic-avif/pug.heic")])
        #expect(heic.status == 0, "\(heic.stderr)")
        #expect(heic.stdout.contains("\"heic\"") || heic.stdout.contains("HEIC"), "\(heic.stdout)")
    }

    @Test("both executables print the one version, the one the server's /health reports")
    func version() async throws {
        let sepia = try await CommandRunner.run(["--version"])
        #expect(sepia.status == 0)
        #expect(sepia.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == SepiaVersion.current)
        let library = try CommandRunner.runBlocking(
            ["--version"], executable: CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("sepia-library"))
        #expect(library.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == SepiaVersion.current)
    }

    @Test("exit codes: 65 for undecodable input, 66 for a missing file, 64 for usage")
    func exitCodes() async throws {
        #expect(try await CommandRunner.run(["info", CommandRunner.fixture("malformed/lottapixel.jpg")]).status == 65)
        #expect(try await CommandRunner.run(["info", "/nonexistent.jpg"]).status == 66)
        #expect(try await CommandRunner.run(["thumbnail"]).status == 64)
        #expect(
            try await CommandRunner.run(["thumbnail", CommandRunner.fixture("photos/gps-datetime.jpg"), "--size", "0x5", "-o", "/tmp/x.jpg"]).status
                == 64)
        #expect(
            try await CommandRunner.run(["apply", "CINoSuchFilter", CommandRunner.fixture("photos/gps-datetime.jpg"), "-o", "/tmp/x.jpg"]).status
                == 64)
        #expect(
            try await CommandRunner.run([
                "apply", "CISepiaTone", "--param", "inputIntensity=2", CommandRunner.fixture("photos/gps-datetime.jpg"), "-o", "/tmp/x.jpg",
            ]).status == 64)
        let failure = try await CommandRunner.run(["convert", CommandRunner.fixture("malformed/truncated_image.png"), "-o", "/tmp/x.png"])
        #expect(failure.status == 65)
        #expect(failure.stderr.contains("truncated_image.png"))
        // Bytes nothing recognises: the message names what the commands read, videos included.
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let noise = folder.appendingPathComponent("noise.mov")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: noise)
        let unknown = try await CommandRunner.run(["info", noise.path])
        #expect(unknown.status == 65)
        #expect(unknown.stdout.contains("not a photo or video") && unknown.stdout.contains("MP4, MOV"), "\(unknown.stdout)")
    }

    @Test(
        "thumbnail sizes for fit, fill and stretch; the format follows the extension",
        arguments: [
            // flower-orientation-6.jpg is stored 480x360 and displays as 360x480 (EXIF orientation 6); ImageMagick's
            // `-auto-orient -thumbnail 256x256` makes it 192x256.
            ("fit", "png", 192, 256), ("fill", "jpg", 256, 256), ("stretch", "webp", 256, 100),
        ])
    func thumbnail(mode: String, ext: String, width: Int, height: Int) async throws {
        let folder = try CommandRunner.temporaryFolder()
        let out = folder.appendingPathComponent("thumb.\(ext)").path
        let size = mode == "stretch" ? "256x100" : "256x256"
        let result = try await CommandRunner.run([
            "thumbnail", CommandRunner.fixture("photos/flower-orientation-6.jpg"), "--size", size, "--mode", mode, "-o", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try ImageDecoding.open(path: out)
        #expect(file.format == ImageFormat(fileExtension: ext))
        #expect(file.pixelSize == IntSize(width: width, height: height))
        #expect(file.metadata.cameraMake == nil, "thumbnails carry no EXIF")
    }

    @Test("apply writes every input to the output folder and reports failures without stopping")
    func applyBatch() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let inputs = ["photos/gps-datetime.jpg", "malformed/hopper.gif", "png-suite/basi6a08.png"].map(CommandRunner.fixture)
        let result = try await CommandRunner.run(["apply", "CISepiaTone", "--intensity", "0.8", "--out-dir", folder.path, "--json"] + inputs)
        #expect(result.status == 65)
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(outcomes.map { $0["status"] as? String } == ["ok", "error", "ok"])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("gps-datetime.jpg").path))
        let png = try ImageDecoding.open(path: folder.appendingPathComponent("basi6a08.png").path)
        #expect(png.hasAlpha, "PNG inputs stay PNG with their alpha")
    }

    @Test("thumbnail makes many files at once, in input order, each the same as made alone; failures do not stop the rest")
    func thumbnailBatch() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let names = [
            "photos/flower-orientation-6.jpg", "malformed/truncated_image.png", "exif-orientation/Landscape_6.jpg", "png-suite/basi6a08.png",
            "heic-avif/pug.heic", "webp/transparent.webp",
        ]
        let inputs = names.map(CommandRunner.fixture)
        let result = try await CommandRunner.run(["thumbnail", "--size", "128", "--out-dir", folder.path, "--json"] + inputs)
        #expect(result.status == 65)
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(outcomes.map { $0["file"] as? String } == inputs)
        #expect(outcomes.map { $0["status"] as? String } == ["ok", "error", "ok", "ok", "ok", "ok"])
        let single = try CommandRunner.temporaryFolder().appendingPathComponent("alone.jpg").path
        let alone = try await CommandRunner.run(["thumbnail", "--size", "128", inputs[2], "-o", single])
        #expect(alone.status == 0)
        let batch = try Data(contentsOf: folder.appendingPathComponent("Landscape_6.jpg"))
        #expect(batch == (try Data(contentsOf: URL(fileURLWithPath: single))), "a file made in a batch is the same as made alone")
        let upright = try ImageDecoding.open(path: folder.appendingPathComponent("Landscape_6.jpg").path)
        #expect(upright.pixelSize == IntSize(width: 128, height: 85))
        #expect(try await CommandRunner.run(["thumbnail", "--size", "128", "-o", single] + inputs.prefix(2)).status == 64)
    }

    @Test("apply CISepiaTone gives the sepia matrix's colours")
    func applySepia() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let out = folder.appendingPathComponent("sepia.png").path
        let input = CommandRunner.fixture("png-suite/cs8n2c08.png")
        let result = try await CommandRunner.run(["apply", "SepiaTone", "--param", "intensity=1", input, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let expected = try await context.renderBitmap(try ImageDecoding.open(path: input).image.applying(SepiaTone(intensity: 1)), layout: .rgb)
        let actual = try await context.renderBitmap(try ImageDecoding.open(path: out).image, layout: .rgb)
        #expect(actual == expected)
    }

    @Test("apply a look with --intensity mixes it with the photo; geometry has no intensity")
    func applyLookAtIntensity() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let out = folder.appendingPathComponent("noir.png").path
        let input = CommandRunner.fixture("png-suite/cs8n2c08.png")
        let result = try await CommandRunner.run(["apply", "CIPhotoEffectNoir", "--intensity", "0.4", input, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let source = try ImageDecoding.open(path: input).image
        let expected = try await context.renderBitmap(source.applying(PhotoEffectNoir(), intensity: 0.4), layout: .rgb)
        let actual = try await context.renderBitmap(try ImageDecoding.open(path: out).image, layout: .rgb)
        #expect(actual == expected)
        #expect(actual != (try await context.renderBitmap(source.applying(PhotoEffectNoir()), layout: .rgb)))
        let crop = try await CommandRunner.run(["apply", "CICrop", "--intensity", "0.4", input, "-o", out])
        #expect(crop.status == 64 && crop.stderr.contains("no intensity"), "\(crop.stderr)")
    }

    @Test("convert turns a rotated HEIC upright and writes PNG")
    func convert() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let out = folder.appendingPathComponent("upright.png").path
        let result = try await CommandRunner.run(["convert", CommandRunner.fixture("exif-orientation/Landscape_5.jpg"), "-o", out])
        #expect(result.status == 0)
        let file = try ImageDecoding.open(path: out)
        #expect(file.pixelSize == IntSize(width: 1800, height: 1200))
    }

    @Test("an output that cannot be written exits with 73 and leaves nothing behind")
    func unwritable() async throws {
        let result = try await CommandRunner.run(["convert", CommandRunner.fixture("photos/gps-datetime.jpg"), "-o", "/nonexistent-folder/out.jpg"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("/nonexistent-folder/out.jpg"))
    }

    @Test("filters lists every filter with its attributes")
    func filters() async throws {
        let result = try await CommandRunner.run(["filters", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let list = try #require(object["filters"] as? [[String: Any]])
        #expect(list.count == FilterRegistry.allTypes.count)
        let catalog = try #require(object["catalog"] as? [[String: Any]])
        #expect(catalog.map { $0["name"] as? String } == (try FilterCatalog.bundled()).map(\.name))
        #expect((object["instafilter"] as? [[String: Any]])?.count == FilterCatalog.instafilter.count)
        let sepia = try #require(list.first { $0["coreImageName"] as? String == "CISepiaTone" })
        let parameters = try #require(sepia["parameters"] as? [[String: Any]])
        #expect(parameters.first?["coreImageKey"] as? String == "inputIntensity")
        #expect(parameters.first?["sliderMaximum"] as? Double == 1)
    }

    @Test("apply --recipe runs the recipe's steps in order, the same as the library")
    func applyRecipe() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let recipe = EditRecipe(filters: [SepiaTone(intensity: 0.7), Vignette(intensity: 1, radius: 1), ExposureAdjust(ev: 0.3)])
        let recipeFile = folder.appendingPathComponent("look.json")
        try recipe.encoded().write(to: recipeFile)
        let input = CommandRunner.fixture("png-suite/basi2c08.png")
        let out = folder.appendingPathComponent("look.png").path
        let result = try await CommandRunner.run(["apply", "--recipe", recipeFile.path, input, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let expected = try await context.renderBitmap(try recipe.apply(to: try ImageDecoding.open(path: input).image), layout: .rgb)
        let actual = try await context.renderBitmap(try ImageDecoding.open(path: out).image, layout: .rgb)
        #expect(actual == expected)

        let bad = folder.appendingPathComponent("bad.json")
        try Data(
            #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CISepiaTone", "parameters": {"inputIntensity": 9}}]}"#
                .utf8
        ).write(to: bad)
        let refused = try await CommandRunner.run(["apply", "--recipe", bad.path, input, "-o", folder.appendingPathComponent("never.png").path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("inputIntensity"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never.png").path))
    }

    @Test("strip writes one thumbnail per catalog entry and a contact sheet")
    func strip() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let sheet = folder.appendingPathComponent("sheet.png").path
        let result = try await CommandRunner.run([
            "strip", CommandRunner.fixture("photos/flower-orientation-6.jpg"), "--size", "120x120", "--out-dir", folder.path, "--sheet", sheet,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        #expect(names.count == 10)
        #expect(names.first == "00-None.jpg" && names.contains("02-Sepia.jpg"))
        let thumbnail = try ImageDecoding.open(path: folder.appendingPathComponent("02-Sepia.jpg").path)
        #expect(max(thumbnail.pixelSize.width, thumbnail.pixelSize.height) == 120)
        let contact = try ImageDecoding.open(path: sheet)
        #expect(contact.format == .png)
        #expect(contact.pixelSize.width >= 120 * 5, "ten cells in at least two rows of five")

        let insta = try await CommandRunner.run([
            "strip", CommandRunner.fixture("photos/flower-orientation-6.jpg"), "--instafilter", "--out-dir",
            folder.appendingPathComponent("insta").path,
        ])
        #expect(insta.status == 0, "\(insta.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("insta").path).count == FilterCatalog.instafilter.count)
    }

    @Test("a broken catalog is a data error naming the entry")
    func brokenCatalog() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let catalog = folder.appendingPathComponent("catalog.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>filter</key><string>CINotAFilter</string><key>name</key><string>Oops</string></dict></array></plist>
            """.utf8
        ).write(to: catalog)
        let result = try await CommandRunner.run([
            "strip", CommandRunner.fixture("photos/gps-datetime.jpg"), "--catalog", catalog.path, "--out-dir",
            folder.appendingPathComponent("o").path,
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("CINotAFilter"), "\(result.stderr)")
    }
}
