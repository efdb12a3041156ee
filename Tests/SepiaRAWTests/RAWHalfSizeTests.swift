import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaRAW

/// Sepia's streamed half-size development (each row developed from the unpacked sensor data when it is read)
/// against LibRaw's own half-size development of the same file with the same options: the same 16-bit samples
/// (none differs: the arithmetic is LibRaw 0.20's), the same automatic brightness, for every white balance a
/// development may ask for.
@Suite struct RAWHalfSizeTests {
    /// Every row a decoder gives, 4 samples a pixel.
    static func rows(_ decoder: RAWRowDecoder) throws -> [UInt16] {
        let width = decoder.size.width
        var samples = [UInt16](repeating: 0, count: 4 * width * decoder.size.height)
        var done = 0
        try samples.withUnsafeMutableBytes { buffer in
            while done < decoder.size.height {
                // A few rows at a time, as the engine asks.
                let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[(done * 8 * width)...].prefix(7 * 8 * width))
                let n = try decoder.readRows(into: chunk, bytesPerRow: 8 * width)
                guard n > 0 else { break }
                done += n
            }
        }
        #expect(done == decoder.size.height)
        return samples
    }

    static let developments: [RAWDevelopment] = [
        RAWDevelopment(),
        RAWDevelopment(whiteBalance: .daylight),
        RAWDevelopment(whiteBalance: .multipliers(red: 2.2, green: 1, blue: 1.3)),
        RAWDevelopment(whiteBalance: .neutral(temperature: 3200, tint: 25)),
        RAWDevelopment(exposure: 0.5, boost: 0.5, whiteBalance: .neutral(temperature: 9000, tint: -40)),
    ]

    @Test(arguments: RAWTIFFFixtures.entries.filter { $0.expected == "DECODE" && $0.file.lowercased().hasSuffix(".dng") })
    func streamedRowsAreLibRawsHalfSize(_ entry: RAWTIFFFixtures.Entry) throws {
        for development in Self.developments {
            try Self.compare(try RAWSource(path: entry.path, development: development), name: entry.file)
        }
    }

    /// An odd width and height (the last column and row of blocks half outside the image, which LibRaw leaves
    /// black): rggb_16bit.dng with its IFD saying one column and one row fewer than the tile holds.
    @Test func oddSizesAreLibRawsHalfSize() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RAWTIFFFixtures.entry("raw/rggb_16bit.dng").path)))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        #expect(bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]))
        let ifd = u32(4)
        for i in 0..<u16(ifd) {
            let entry = ifd + 2 + 12 * i
            guard [256, 257].contains(u16(entry)), [3, 4].contains(u16(entry + 2)) else { continue }
            bytes[entry + 8] -= 1  // 1200 x 800: no borrow
        }
        for development in Self.developments {
            let raw = try RAWSource(bytes: EncodedBytes(bytes), development: development, file: "odd.dng")
            #expect(raw.pixelSize == IntSize(width: 1199, height: 799))
            #expect(raw.reduction(scale: 2).size == IntSize(width: 600, height: 400))
            try Self.compare(raw, name: "odd.dng")
        }
    }

    /// The streamed development of `raw` at half size against LibRaw's: the same samples and the same gain.
    static func compare(_ raw: RAWSource, name: String) throws {
        let size = raw.reduction(scale: 2).size
        let streamed = try RAWRowDecoder(source: raw, half: true, size: size)
        let libRaw = try RAWRowDecoder(source: raw, half: true, size: size, libRawDevelopment: true)
        let development = raw.development.summary
        #expect(streamed.streams, "\(name): not streamed")
        #expect(!libRaw.streams)
        #expect(streamed.color.matrix?.rows.0.x == libRaw.color.matrix?.rows.0.x, "\(name), \(development): the gains differ")
        let a = try rows(streamed)
        let b = try rows(libRaw)
        var largest = 0
        for i in a.indices { largest = max(largest, abs(Int(a[i]) - Int(b[i]))) }
        #expect(largest == 0, "\(name), \(development): \(largest) apart in 16 bits")
        #expect(a.contains { $0 != 0 && $0 != 0xFFFF }, "\(name): an empty development")
    }

    /// What the streamed development does not do is left to LibRaw: full size, noise reduction, highlight recovery.
    @Test func otherDevelopmentsAreLibRaws() throws {
        let entry = RAWTIFFFixtures.entry("raw/rggb_12bit.dng")
        for development in [RAWDevelopment(noiseReduction: 0.2), RAWDevelopment(recoverHighlights: true)] {
            let raw = try RAWSource(path: entry.path, development: development)
            let decoder = try RAWRowDecoder(source: raw, half: true, size: raw.reduction(scale: 2).size)
            #expect(!decoder.streams)
            #expect(try Self.rows(decoder).contains { $0 != 0 && $0 != 0xFFFF })
        }
        let raw = try RAWSource(path: entry.path)
        #expect(try !RAWRowDecoder(source: raw, half: false, size: raw.pixelSize).streams)
    }

    /// Hostile files asked for at half size are refused as at full size.
    @Test(arguments: RAWTIFFFixtures.entries(kind: "hostile", expected: "REFUSE").filter { $0.file.hasSuffix(".dng") })
    func hostileFilesAreRefusedAtHalfSize(_ entry: RAWTIFFFixtures.Entry) throws {
        do {
            let file = try PhotoDecoding.open(path: entry.path, options: DecodeOptions(strict: true))
            let raw = try #require(file as? RAWSource)
            let decoder = try raw.makeDecoder(scale: 2)
            var row = [UInt8](repeating: 0, count: 8 * decoder.size.width)
            while try row.withUnsafeMutableBytes({ try decoder.readRows(into: $0, bytesPerRow: 8 * decoder.size.width) }) > 0 {}
            Issue.record("\(entry.file) was decoded")
        } catch let error as CodecError {
            #expect(!error.reason.isEmpty)
        }
    }
}
