import Foundation
import SepiaCodecs
import SepiaImage
import SepiaRAW
import Testing

/// Randomly damaged RAW and TIFF files (bytes overwritten in the header and the data, files cut): every one is
/// either decoded or refused with a ``CodecError``, never a crash or a hang. A fixed seed makes a failure repeat.
@Suite struct DamagedInputTests {
    let context = RenderContext()

    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    }

    static func damage(_ original: [UInt8], round: Int, random: inout Random) -> [UInt8] {
        var bytes = original
        switch round % 4 {
        case 0:  // the header and first IFDs
            for _ in 0..<(1 + random.below(8)) { bytes[random.below(min(bytes.count, 1024))] = UInt8(random.below(256)) }
        case 1:  // anywhere
            for _ in 0..<(1 + random.below(64)) { bytes[random.below(bytes.count)] = UInt8(random.below(256)) }
        case 2:  // cut
            bytes = Array(bytes.prefix(random.below(bytes.count)))
        default:  // a run of one byte in the IFD area, as a bad writer leaves
            let start = random.below(min(bytes.count, 4096))
            let value = UInt8([0, 0xFF, 0x7F][random.below(3)])
            for i in start..<min(bytes.count, start + 4 + random.below(32)) { bytes[i] = value }
        }
        return bytes
    }

    @Test(arguments: ["raw/rggb_preview.dng", "raw/bggr_12bit.dng", "tiff/rgb16_lzw_pred2.tif", "tiff/rgb8_tiled.tif", "tiff/rgb8_jpeg_ycbcr420.tif"])
    func damagedFilesAreDecodedOrRefused(_ name: String) async throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RAWTIFFFixtures.entry(name).path)))
        var random = Random(state: 0x5E91A + UInt64(name.utf8.count))
        let rounds = name.hasSuffix(".dng") ? 32 : 64
        var refused = 0
        for round in 0..<rounds {
            let bytes = Self.damage(original, round: round, random: &random)
            guard !bytes.isEmpty else { continue }
            do {
                // Named as the original is, so that a file whose signature is gone is still tried as RAW.
                let file = try PhotoDecoding.open(EncodedBytes(bytes), options: DecodeOptions(strict: round % 2 == 0), fileName: name)
                _ = try await context.renderBitmap(file.image.thumbnail(size: IntSize(width: 160, height: 160)), layout: .rgb)
            } catch is CodecError {
                refused += 1
            }
        }
        #expect(refused > 0, "no damaged copy of \(name) was refused")
    }
}
