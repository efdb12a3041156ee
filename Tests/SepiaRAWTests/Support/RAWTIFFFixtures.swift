import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// The RAW and TIFF inputs and their reference decodes, made by `scripts/testdata-raw` in
/// `.build/testdata/raw-tiff` from a synthetic scene (DNGs with pidng, TIFFs with tifffile and ImageMagick;
/// references by ImageMagick/libtiff, numpy and LibRaw's `dcraw_emu`). A missing set stops the tests with a
/// message saying how to make it: no test passes for want of its files.
enum RAWTIFFFixtures {
    static let root: URL = {
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url =
            ProcessInfo.processInfo.environment["SEPIA_RAW_TESTDATA"].map { URL(fileURLWithPath: $0) }
            ?? repository.appendingPathComponent(".build/testdata/raw-tiff")
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.json").path) else {
            fatalError("the RAW and TIFF test files are missing at \(url.path): run scripts/testdata-raw")
        }
        return url
    }()

    struct Tolerance: Decodable, Sendable {
        let max_abs: Int?
        let psnr_min: Double?
        let where_alpha_at_least: Int?
    }

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let kind: String
        let expected: String
        let display_size: [Int]?
        let orientation: Int?
        let bits: Int?
        let reference: String?
        let reference_half: String?
        let tolerance: Tolerance?
        let preview_size: [Int]?
        let capture_date: String?
        let make: String?
        let model: String?
        let note: String?

        var testDescription: String { "\(file) (\(expected))" }
        var path: String { RAWTIFFFixtures.root.appendingPathComponent(file).path }
        var referencePath: String? { reference.map { RAWTIFFFixtures.root.appendingPathComponent($0).path } }
        var displaySize: IntSize? { display_size.map { IntSize(width: $0[0], height: $0[1]) } }
    }

    static let entries: [Entry] = {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("MANIFEST.json")),
            let list = try? JSONDecoder().decode([Entry].self, from: data)
        else { fatalError("cannot read \(root.path)/MANIFEST.json: run scripts/testdata-raw --force") }
        return list
    }()

    static func entries(kind: String, expected: String = "DECODE") -> [Entry] {
        entries.filter { $0.kind == kind && $0.expected == expected }
    }

    static func entry(_ file: String) -> Entry {
        guard let e = entries.first(where: { $0.file == file }) else { fatalError("\(file) is not in the manifest") }
        return e
    }
}

extension RAWTIFFFixtures {
    /// A reference as an 8-bit bitmap: a 16-bit one from its exact samples (the `.ppm` beside the PNG), for PNG
    /// decoders may apply their own curve to 16-bit samples.
    static func referenceBitmap(_ path: String, layout: Bitmap.Layout, context: RenderContext) async throws -> Bitmap {
        let sixteen = String(path.dropLast(4)) + ".ppm"
        if FileManager.default.fileExists(atPath: sixteen) { return try PortablePixmap(path: sixteen).rgb8 }
        return try await context.renderBitmap(ImageDecoding.open(path: path).image, layout: layout)
    }
}

/// How far apart two bitmaps of the same size and layout are.
struct PixelDifference {
    var maximum = 0
    var psnr = Double.infinity

    /// Compares the colour channels, only where `b`'s alpha is at least `minimumAlpha` (when it has alpha).
    init(_ a: Bitmap, _ b: Bitmap, minimumAlpha: Int = 0) {
        precondition(a.layout == b.layout && a.width == b.width && a.height == b.height)
        let channels = a.layout.channels
        let colours = a.layout.hasAlpha ? channels - 1 : channels
        var squares = 0.0
        var count = 0
        for p in 0..<(a.width * a.height) {
            if a.layout.hasAlpha, Int(b.bytes[p * channels + colours]) < minimumAlpha { continue }
            for c in 0..<colours {
                let d = abs(Int(a.bytes[p * channels + c]) - Int(b.bytes[p * channels + c]))
                maximum = max(maximum, d)
                squares += Double(d * d)
                count += 1
            }
        }
        let mse = count == 0 ? 0 : squares / Double(count)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

/// A binary PGM or PPM (P5, P6) of 8 or 16 bits: the reference samples exactly as written.
struct PortablePixmap {
    let width: Int
    let height: Int
    let channels: Int
    /// The samples, row by row, as 16-bit values (8-bit files scaled by 257).
    let samples: [UInt16]

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var value = 0
            while bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            fields.append(value)
        }
        i += 1
        width = fields[0]
        height = fields[1]
        channels = bytes[1] == 0x35 ? 1 : 3
        let wide = fields[2] > 255
        let count = width * height * channels
        samples = (0..<count).map { k in wide ? UInt16(bytes[i + 2 * k]) << 8 | UInt16(bytes[i + 2 * k + 1]) : UInt16(bytes[i + k]) * 257 }
    }

    /// The samples rounded to 8 bits, as an RGB bitmap.
    var rgb8: Bitmap {
        var bitmap = Bitmap(width: width, height: height, layout: .rgb)
        for p in 0..<(width * height) {
            for c in 0..<3 {
                let v = Double(samples[p * channels + (channels == 1 ? 0 : c)]) / 257
                bitmap.bytes[3 * p + c] = UInt8(v.rounded())
            }
        }
        return bitmap
    }
}
