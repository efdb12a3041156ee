import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// Walks `MANIFEST.json` and checks every file's verdict and size.
@Suite struct ManifestTests {
    static let context = RenderContext(options: RenderOptions(threadCount: 2))

    @Test("the manifest is present and complete")
    func manifestLoads() {
        #expect(Corpus.entries.count >= 200, "corpus at \(Corpus.root.path)")
    }

    @Test("every file gets the manifest's verdict", arguments: Corpus.entries)
    func verdict(entry: Corpus.Entry) async throws {
        let outcome: Result<(any EncodedImage, Bitmap), any Error>
        do {
            let file = try ImageDecoding.open(path: entry.path)
            // A thumbnail render decodes every byte of the image data (libjpeg reads all scans even when
            // scaling), so damage anywhere in the file shows up.
            let bitmap = try await Self.context.renderBitmap(file.image.thumbnail(size: IntSize(width: 192, height: 192)))
            outcome = .success((file, bitmap))
        } catch {
            outcome = .failure(error)
        }
        switch (entry.expected, outcome) {
        case ("DECODE", .success(let (file, bitmap))), ("LENIENT", .success(let (file, bitmap))):
            if let expected = entry.displaySize {
                #expect(file.displaySize == expected)
                let ratio = Double(expected.width) / Double(expected.height)
                let got = Double(bitmap.width) / Double(bitmap.height)
                #expect(abs(ratio - got) < 0.05 || min(bitmap.width, bitmap.height) < 20)
            }
        case ("DECODE", .failure(let error)), ("LENIENT", .failure(let error)):
            Issue.record("\(entry.file) must decode, but: \(error)")
        case ("REJECT", .success):
            Issue.record("\(entry.file) must be rejected")
        case ("REJECT", .failure(let error)), ("OPTIONAL", .failure(let error)), ("NO-CRASH", .failure(let error)):
            let codec = try #require(error as? CodecError, "\(entry.file): not a typed error: \(error)")
            #expect(!codec.reason.isEmpty)
            #expect(codec.description.contains(entry.path), "errors name the file: \(codec)")
        case ("OPTIONAL", .success(let (file, _))), ("NO-CRASH", .success(let (file, _))):
            if let expected = entry.displaySize { #expect(file.displaySize == expected) }
        default:
            Issue.record("unknown verdict \(entry.expected)")
        }
    }

    @Test(
        "pixel bombs are refused from the header, before any pixel memory",
        arguments: Corpus.entries.filter {
            guard let s = $0.storedSize else { return false }
            return s.width * s.height > 100_000_000
        })
    func bombs(entry: Corpus.Entry) {
        do {
            _ = try ImageDecoding.open(path: entry.path)
            Issue.record("\(entry.file) was accepted")
        } catch {
            #expect(error.code == .tooManyPixels, "\(error)")
        }
    }

    @Test("the pixel limit is configurable")
    func configurableLimit() throws {
        let path = Corpus.path("photos/xmp_test.jpg")
        #expect(throws: CodecError.self) { try ImageDecoding.open(path: path, options: DecodeOptions(maximumPixels: 1_000_000)) }
        _ = try ImageDecoding.open(path: path, options: DecodeOptions(maximumPixels: 4_000_000))
    }

    @Test("formats are recognised by content, not by name")
    func sniffing() throws {
        let png = try ImageDecoding.open(path: Corpus.path("malformed/png-named-as.jpg"))
        #expect(png.format == .png)
        #expect(throws: CodecError.self) { try ImageDecoding.open(path: Corpus.path("malformed/text-file-named.jpg")) }
        do {
            _ = try ImageDecoding.open(path: Corpus.path("malformed/hopper.gif"))
        } catch {
            #expect(error.code == .unsupportedFormat && error.format == .gif)
        }
    }

    @Test("a missing file is a file-system error naming the file")
    func missingFile() {
        do {
            _ = try ImageDecoding.open(path: "/nonexistent/photo.jpg")
            Issue.record("opened a missing file")
        } catch {
            #expect(error.code == .fileSystem)
            #expect(error.description.contains("/nonexistent/photo.jpg"))
        }
    }
}
