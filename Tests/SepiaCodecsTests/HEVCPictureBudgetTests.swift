import Foundation
import SepiaImage
import Testing

@testable import SepiaCodecs

/// A HEIC whose container declares a 64×64 image (`ispe`) while the HEVC sequence parameter set inside it
/// declares a 16384×16384 picture: libde265 allocates the picture the bitstream describes (384 MiB of planes),
/// so the decode budget reserves the larger of the two, and the file is refused when it is opened. The files
/// are made here: heif-enc codes a 64×64 image, and its sequence parameter set is rewritten, in the `hvcC`
/// property or as a NAL unit of the image's own data (which libde265 reads after it).
@Suite("Decode memory budget of HEVC pictures")
struct HEVCPictureBudgetTests {
    let context = RenderContext(options: RenderOptions(threadCount: 1))

    /// The `hvcC` payload and the coded data of a 64×64 image coded by heif-enc.
    static func coded64() throws -> (configuration: [UInt8], data: [UInt8]) {
        let pattern = (0..<(64 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 * 5 + $0 / 192) }
        let bytes = try HEIFEncoder.heic(Bitmap(width: 64, height: 64, layout: .rgb, bytes: pattern))
        return try bytes.withUnsafeBytes { file in
            let items = try #require(HEIFItems(file: file))
            let configuration = try #require(items.property("hvcC", of: items.primary))
            return (Array(configuration.payload), try #require(items.data(of: items.primary)))
        }
    }

    @Test("an SPS declaring 16384x16384 in hvcC, or among the image's NAL units, is refused when opened", arguments: [false, true])
    func hugeCodedPicture(inBand: Bool) async throws {
        let (configuration, data) = try Self.coded64()
        let honest = HostileHEIC.file(configuration: configuration, data: data, width: 64, height: 64)
        let opened = try ImageDecoding.open(EncodedBytes(honest), options: DecodeOptions(strict: true))
        let bitmap = try await context.renderBitmap(Image(source: opened), layout: .rgb)
        #expect(bitmap.width == 64 && bitmap.height == 64, "the file as assembled here decodes")

        let sps = try #require(HostileHEIC.parameterSets(configuration).first { ($0[0] >> 1) & 0x3F == 33 })
        let huge = try HostileHEIC.resized(sps, width: 16384, height: 16384)
        #expect(HEVCSequenceParameterSet(nal: huge).map { [$0.width, $0.height, $0.chromaFormat] } == [16384, 16384, 1])
        let hostile =
            inBand
            ? HostileHEIC.file(configuration: configuration, data: HostileHEIC.lengthPrefixed(huge) + data, width: 64, height: 64)
            : HostileHEIC.file(configuration: HostileHEIC.replacing(sps, with: huge, in: configuration), data: data, width: 64, height: 64)
        #expect(hostile.count < 10_000, "the file itself is small")
        let error = #expect(throws: CodecError.self) { _ = try ImageDecoding.open(EncodedBytes(hostile)) }
        #expect(error?.code == .limitExceeded, "\(String(describing: error))")
        let reason = error?.reason ?? ""
        #expect(reason.contains("an HEVC picture of 16384x16384 pixels in its sequence parameter set for the image of 64x64"), "\(reason)")
        #expect(reason.contains("384 MiB") && reason.contains("64 MiB"), "what it needs and the budget: \(reason)")
        // Raised, the budget admits it: the size read is the bitstream's, not a refusal of anything unusual.
        _ = try ImageDecoding.open(EncodedBytes(hostile), options: DecodeOptions(maximumDecodeBytes: 1 << 30))
    }

    @Test("every HEIC of the corpus opens within the default budget, its coded pictures read as large as its ispe")
    func corpusWithinBudget() throws {
        let folder = Corpus.root.appendingPathComponent("heic-avif")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".heic") || $0.hasSuffix(".heif") }
        #expect(names.count >= 10, "\(names)")
        var hevcItems = 0
        for name in names.sorted() {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            _ = try ImageDecoding.open(EncodedBytes(bytes))
            try bytes.withUnsafeBytes { file in
                let items = try #require(HEIFItems(file: file), "\(name)")
                var scanned = HEIFItems.ScannedPictures()
                for item in items.types.keys where items.property("hvcC", of: item) != nil {
                    let declared = try #require(items.declaredSize(of: item), "\(name) item \(item)")
                    let coded = try #require(items.largestSequenceParameterSet(of: item, scanned: &scanned), "\(name) item \(item)")
                    // The coded picture is the declared one, rounded up to whole coding blocks (8 pixels at least).
                    #expect(coded.width >= declared.width && coded.width < declared.width + 64, "\(name) item \(item)")
                    #expect(coded.height >= declared.height && coded.height < declared.height + 64, "\(name) item \(item)")
                    hevcItems += 1
                }
            }
        }
        #expect(hevcItems >= 10)
    }

    @Test("the SPS reader takes the sizes of heif-enc's pictures, through emulation prevention bytes")
    func readsSequenceParameterSets() throws {
        let (configuration, _) = try Self.coded64()
        let sps = try #require(HostileHEIC.parameterSets(configuration).first { ($0[0] >> 1) & 0x3F == 33 })
        let read = try #require(HEVCSequenceParameterSet(nal: sps))
        #expect(read.width == 64 && read.height == 64 && read.chromaFormat == 1 && read.lumaBitDepth == 8)
        #expect(read.pictureBytes == 64 * 64 * 3 / 2)
        // 4096 = 0x1000 puts two zero bytes and a small byte in a row, which an emulation prevention byte breaks.
        for side in [4096, 640, 8] {
            let resized = try HostileHEIC.resized(sps, width: side, height: side)
            #expect(HEVCSequenceParameterSet(nal: resized)?.width == side, "\(side)")
        }
        // Not an SPS, or cut short: nothing.
        #expect(HEVCSequenceParameterSet(nal: [0x40, 0x01, 0x0C]) == nil)
        #expect(HEVCSequenceParameterSet(nal: sps.prefix(10)) == nil)
    }
}

/// Single-image HEIC files assembled from an `hvcC` payload and coded data, and HEVC sequence parameter sets
/// rewritten to declare another picture size.
enum HostileHEIC {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A HEIC whose one image, item 1, has `configuration` as its `hvcC`, `data` as its coded data and an
    /// `ispe` of `width`×`height`.
    static func file(configuration: [UInt8], data: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = fullBox("pitm", [0, 1])
        let iinf = fullBox("iinf", [0, 1] + fullBox("infe", version: 2, [0, 1, 0, 0] + Array("hvc1".utf8) + [0]))
        let ipco = box("ipco", box("hvcC", configuration) + fullBox("ispe", bigEndian(width) + bigEndian(height)))
        // Item 1: property 1 (hvcC, essential) and property 2 (ispe).
        let ipma = fullBox("ipma", bigEndian(1) + [0, 1, 2, 0x81, 0x02])
        let iprp = box("iprp", ipco + ipma)
        func iloc(_ offset: UInt32) -> [UInt8] {
            fullBox("iloc", [0x44, 0x00, 0, 1, 0, 1, 0, 0, 0, 1] + bigEndian(offset) + bigEndian(UInt32(data.count)))
        }
        func meta(_ offset: UInt32) -> [UInt8] { fullBox("meta", hdlr + pitm + iloc(offset) + iinf + iprp) }
        let start = UInt32(ftyp.count + meta(0).count + 8)
        return ftyp + meta(start) + box("mdat", data)
    }

    /// The NAL units of an `hvcC` payload's arrays.
    static func parameterSets(_ configuration: [UInt8]) -> [[UInt8]] {
        var sets: [[UInt8]] = []
        var at = 23
        for _ in 0..<Int(configuration[22]) {
            let count = Int(configuration[at + 1]) << 8 | Int(configuration[at + 2])
            at += 3
            for _ in 0..<count {
                let length = Int(configuration[at]) << 8 | Int(configuration[at + 1])
                sets.append(Array(configuration[(at + 2)..<(at + 2 + length)]))
                at += 2 + length
            }
        }
        return sets
    }

    /// `configuration` with the NAL unit `old` of its arrays replaced by `new`.
    static func replacing(_ old: [UInt8], with new: [UInt8], in configuration: [UInt8]) -> [UInt8] {
        var out = Array(configuration[0..<23])
        var at = 23
        for _ in 0..<Int(configuration[22]) {
            out += configuration[at..<(at + 3)]
            let count = Int(configuration[at + 1]) << 8 | Int(configuration[at + 2])
            at += 3
            for _ in 0..<count {
                let length = Int(configuration[at]) << 8 | Int(configuration[at + 1])
                let nal = Array(configuration[(at + 2)..<(at + 2 + length)])
                let kept = nal == old ? new : nal
                out += [UInt8(kept.count >> 8), UInt8(kept.count & 0xFF)] + kept
                at += 2 + length
            }
        }
        return out
    }

    /// `nal` after a 4-byte length, as heif-enc writes an image's data.
    static func lengthPrefixed(_ nal: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(nal.count)) + nal
    }

    struct Unexpected: Error {
        var description: String
    }

    /// The sequence parameter set `sps` (a NAL unit, its header first) declaring pictures of `width`×`height`:
    /// its payload's bits with the two sizes replaced, re-terminated and with emulation prevention bytes again.
    /// heif-enc's SPS has one sub-layer and 4:2:0 chroma, which the rewrite relies on.
    static func resized(_ sps: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let payload = RBSPBitReader.unescaped(sps.dropFirst(2))
        let bits = payload.flatMap { byte in (0..<8).map { byte >> (7 - $0) & 1 } }
        func readExpGolomb(at position: inout Int) -> Int {
            var leading = 0
            while bits[position] == 0 {
                leading += 1
                position += 1
            }
            position += 1
            var suffix = 0
            for _ in 0..<leading {
                suffix = suffix << 1 | Int(bits[position])
                position += 1
            }
            return (1 << leading) - 1 + suffix
        }
        func expGolomb(_ value: Int) -> [UInt8] {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            return [UInt8](repeating: 0, count: length - 1) + (0..<length).map { UInt8(code >> (length - 1 - $0) & 1) }
        }
        // vps id (4), max sub-layers minus 1 (3), nesting (1), the one-layer profile_tier_level (96).
        let subLayers = bits[4] << 2 | bits[5] << 1 | bits[6]
        guard subLayers == 0 else { throw Unexpected(description: "an SPS with \(subLayers + 1) sub-layers") }
        var position = 104
        _ = readExpGolomb(at: &position)
        guard readExpGolomb(at: &position) == 1 else { throw Unexpected(description: "an SPS not 4:2:0") }
        let sizes = position
        _ = readExpGolomb(at: &position)
        _ = readExpGolomb(at: &position)
        var rewritten = Array(bits[..<sizes]) + expGolomb(width) + expGolomb(height) + bits[position...]
        // The stop bit, then zeros up to a whole byte.
        while rewritten.last == 0 { rewritten.removeLast() }
        while rewritten.count % 8 != 0 { rewritten.append(0) }
        var out = Array(sps.prefix(2))
        var zeros = 0
        for start in stride(from: 0, to: rewritten.count, by: 8) {
            let byte = rewritten[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | $1 }
            if zeros >= 2 && byte <= 3 {
                out.append(3)
                zeros = 0
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
