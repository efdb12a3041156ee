import Dispatch
import Foundation
import SepiaImage
import SepiaTestSupport
import Synchronization
import Testing

@testable import SepiaCodecs

/// A progressive JPEG's scans are Huffman-decoded on two threads, each reading part of the file into shared
/// coefficient buffers. Whatever the scan script, the pixels must be exactly those of one thread reading every
/// scan in order, and of the baseline file the progressive one was transcoded from.
@Suite("Progressive JPEG scans on two threads")
struct ProgressiveScanLanesTests {
    /// jpegtran scan scripts: component indexes, spectral band, then the successive-approximation bits.
    static let scripts: [String: String] = [
        // Each component's DC scan on its own, three levels of successive approximation, interleaved DC
        // refinement: sixteen scans, more than are tried exhaustively.
        "refined": """
        0: 0-0, 0, 2; 1: 0-0, 0, 2; 2: 0-0, 0, 2;
        0: 1-9, 0, 3; 2: 1-63, 0, 2; 1: 1-63, 0, 2; 0: 10-63, 0, 3; 0: 1-63, 3, 2;
        0,1,2: 0-0, 2, 1; 0,1,2: 0-0, 1, 0;
        1: 1-63, 2, 1; 2: 1-63, 2, 1; 0: 1-63, 2, 1;
        2: 1-63, 1, 0; 1: 1-63, 1, 0; 0: 1-63, 1, 0;
        """,
        // Spectral selection only, luma in five bands.
        "bands": """
        0,1,2: 0-0, 0, 0;
        0: 1-2, 0, 0; 0: 3-5, 0, 0; 1: 1-63, 0, 0; 0: 6-9, 0, 0; 0: 10-14, 0, 0; 2: 1-63, 0, 0;
        0: 15-27, 0, 0; 0: 28-63, 0, 0;
        """,
    ]

    /// A 1600 px photo from the corpus as a baseline JPEG, large enough that its scans are split.
    static func baseline(_ subsampling: EncodeOptions.ChromaSubsampling) throws -> [UInt8] {
        let file = try ImageDecoding.open(path: Corpus.path("photos/fujifilm-w3.jpg"))
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let image = try context.renderBitmapSynchronously(file.image.thumbnail(size: IntSize(width: 1600, height: 1600)))
        return try ImageEncoding.encode(image, as: .jpeg, options: EncodeOptions(quality: 92, chromaSubsampling: subsampling))
    }

    /// `bytes` losslessly transcoded by jpegtran with `arguments`.
    static func jpegtran(_ bytes: [UInt8], _ arguments: [String], script: String? = nil) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg")
        let output = folder.appendingPathComponent("out.jpg")
        try Data(bytes).write(to: input)
        var all = arguments
        if let script {
            let scans = folder.appendingPathComponent("scans.txt")
            try script.write(to: scans, atomically: true, encoding: .utf8)
            all += ["-scans", scans.path]
        }
        let result: ExternalProgram.Result
        do {
            result = try ExternalProgram.run("/usr/bin/jpegtran", all + ["-outfile", output.path, input.path])
        } catch {
            Issue.record("jpegtran (Debian package libjpeg-turbo-progs, installed by scripts/setup) is needed: \(error)")
            throw error
        }
        #expect(result.status == 0, "jpegtran: \(result.errors)")
        return [UInt8](try Data(contentsOf: output))
    }

    /// Every row at `scale`, how many threads decoded the scans, and the warnings.
    static func decode(
        _ bytes: [UInt8], scale: Int, parallel: Bool, strict: Bool = false
    ) throws -> (
        pixels: [UInt8], threads: Int, warnings: [String]
    ) {
        let options = DecodeOptions(strict: strict, progressiveDCShortcut: false, parallelProgressiveScans: parallel)
        let file = try ImageDecoding.open(data: Data(bytes), options: options)
        let decoder = try file.makeDecoder(scale: scale)
        let pixels = try HEIFPlanarDecodeTests.rows(decoder)
        #expect(pixels.count == decoder.size.width * decoder.size.height * decoder.format.bytesPerPixel)
        return (pixels, (decoder as? JPEGRowDecoder)?.scanThreads ?? 0, file.decodeWarnings.all)
    }

    static func variants() throws -> [(name: String, bytes: [UInt8])] {
        let s420 = try baseline(.s420)
        let s444 = try baseline(.s444)
        return [
            ("libjpeg's script, 4:2:0, a restart marker per row", try jpegtran(s420, ["-progressive", "-restart", "1"])),
            ("libjpeg's script, grey", try jpegtran(s420, ["-progressive", "-grayscale"])),
            ("refined, 4:4:4", try jpegtran(s444, [], script: scripts["refined"])),
            ("refined, 4:2:0", try jpegtran(s420, [], script: scripts["refined"])),
            ("bands, 4:2:0", try jpegtran(s420, [], script: scripts["bands"])),
        ]
    }

    @Test("every scan script decodes on two threads to the pixels of one thread and of the baseline file")
    func exact() throws {
        for (name, bytes) in try Self.variants() {
            for scale in [1, 4] {
                let two = try Self.decode(bytes, scale: scale, parallel: true)
                let one = try Self.decode(bytes, scale: scale, parallel: false)
                #expect(two.threads == 2, "\(name): the scans were split")
                #expect(one.threads == 1)
                let same = two.pixels == one.pixels
                #expect(same, "\(name) at 1/\(scale)")
                #expect(two.warnings.isEmpty && one.warnings.isEmpty, "\(name): \(two.warnings) \(one.warnings)")
                if !name.contains("grey") {
                    let sequential = try Self.decode(try Self.jpegtran(bytes, []), scale: scale, parallel: false)
                    let asBaseline = two.pixels == sequential.pixels
                    #expect(asBaseline, "\(name) at 1/\(scale) against the baseline file")
                }
            }
        }
    }

    @Test("many decodes at once, of a clean file and of a damaged one, all come out as on one thread")
    func concurrent() throws {
        let clean = try Self.jpegtran(try Self.baseline(.s420), [], script: Self.scripts["refined"])
        // Damage in every luma AC scan too: a damaged scan can write past its band, onto coefficients of a band
        // another scan writes, and the result must not depend on which lane gets there first.
        var damaged = clean
        for scan in ProgressiveDCShortcutTests.scans(clean) where scan.components == [1] && scan.ss > 0 && scan.data.count > 64 {
            var i = scan.data.lowerBound + scan.data.count / 3
            while damaged[i] == 0xFF || damaged[i - 1] == 0xFF || damaged[i] ^ 0x5A == 0xFF { i += 1 }
            damaged[i] ^= 0x5A
        }
        for bytes in [clean, damaged] {
            let expected = try Self.decode(bytes, scale: 1, parallel: false).pixels
            let results = Mutex<[Bool]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let same = (try? Self.decode(bytes, scale: 1, parallel: true).pixels) == expected
                results.withLock { $0.append(same) }
            }
            #expect(results.withLock { $0 } == Array(repeating: true, count: 8), "\(bytes == clean ? "clean" : "damaged")")
        }
    }

    /// The scans of a JPEG: where each one's entropy-coded data lies.
    static func scanData(_ bytes: [UInt8]) -> [Range<Int>] {
        ProgressiveDCShortcutTests.scans(bytes).map(\.data)
    }

    @Test("damage in any scan: the same pixels and warnings on two threads as on one, and the same strict verdict")
    func damaged() throws {
        let clean = try Self.jpegtran(try Self.baseline(.s420), [], script: Self.scripts["refined"])
        var warned = 0, refused = 0
        for data in Self.scanData(clean) where data.count > 64 {
            var bytes = clean
            // Flip bits in the middle of the scan, never making or breaking a 0xFF (a marker or a stuffed byte).
            var i = data.lowerBound + data.count / 2
            while bytes[i] == 0xFF || bytes[i - 1] == 0xFF || bytes[i] ^ 0x5A == 0xFF { i += 1 }
            bytes[i] ^= 0x5A
            let two = try Self.decode(bytes, scale: 1, parallel: true)
            let one = try Self.decode(bytes, scale: 1, parallel: false)
            #expect(two.threads == 2)
            let samePixels = two.pixels == one.pixels
            #expect(samePixels, "damage at byte \(i)")
            #expect(two.warnings.count == one.warnings.count, "damage at byte \(i): \(two.warnings) \(one.warnings)")
            // Strict mode refuses the damage that loses data, on one thread or two alike.
            let strictTwo = Result { try Self.decode(bytes, scale: 1, parallel: true, strict: true).pixels }
            let strictOne = Result { try Self.decode(bytes, scale: 1, parallel: false, strict: true).pixels }
            switch (strictTwo, strictOne) {
            case (.success(let a), .success(let b)): #expect(a == b && a == one.pixels, "damage at byte \(i)")
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)")
                refused += 1
            default:
                Issue.record("damage at byte \(i): strict mode decided differently on two threads and on one")
            }
            warned += one.warnings.isEmpty ? 0 : 1
        }
        #expect(warned >= 4 && refused >= 2, "the damage was noticed: \(warned) warned, \(refused) refused")
    }
}
