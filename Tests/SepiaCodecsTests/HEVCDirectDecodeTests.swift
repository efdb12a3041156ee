import Foundation
import SepiaImage
import Testing

@testable import SepiaCodecs

/// 8-bit HEVC images without alpha are decoded straight through libde265, tile by tile, and rotated and
/// converted to RGB by Sepia. The reference is libheif, which assembles, rotates and converts the same files.
@Suite("HEVC tiles through libde265")
struct HEVCDirectDecodeTests {
    /// Files whose primary image is decoded directly: a 48-tile iPhone grid, the same grid rotated by three
    /// quarter turns (`irot`) as the iPhone wrote it, and a single coded image.
    static let direct = ["heic-avif/arrow-irot0.heic", "heic-avif/arrow.heic", "heic-avif/RGB_8__128x128.heif"]

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(name))))
    }

    static func open(_ bytes: [UInt8]) throws -> HEIFSource {
        try #require(try ImageDecoding.open(EncodedBytes(bytes)) as? HEIFSource)
    }

    /// `bytes` with the angle of every `irot` box set to `quarterTurns`.
    static func rotated(_ bytes: [UInt8], quarterTurns: UInt8) -> [UInt8] {
        var out = bytes
        let tag = Array("irot".utf8)
        var i = 0
        while i + 5 <= out.count {
            if Array(out[i..<(i + 4)]) == tag { out[i + 4] = quarterTurns }
            i += 1
        }
        return out
    }

    @Test("the layout is read from the container")
    func layouts() throws {
        let iphone = try #require(try Self.open(Self.bytes("heic-avif/arrow-irot0.heic")).layout)
        #expect(iphone.rows == 6 && iphone.columns == 8 && iphone.tiles.count == 48)
        #expect(iphone.tileSize == IntSize(width: 512, height: 512) && iphone.stored == IntSize(width: 4032, height: 3024))
        let samsung = try #require(try Self.open(Self.bytes("heic-avif/arrow.heic")).layout)
        #expect(samsung.quarterTurns == 3 && samsung.displayed == IntSize(width: samsung.stored.height, height: samsung.stored.width))
        let single = try #require(try Self.open(Self.bytes("heic-avif/RGB_8__128x128.heif")).layout)
        #expect(single.tiles.count == 1)
        let small = try #require(try Self.open(Array(Data(contentsOf: URL(fileURLWithPath: Self.grid)))).layout)
        #expect(small.rows == 2 && small.columns == 3 && small.quarterTurns == 1)
        #expect(small.stored == IntSize(width: 181, height: 121) && small.displayed == IntSize(width: 121, height: 181))
        // A crop (`clap`) is left to libheif.
        #expect(try Self.open(Self.bytes("heic-avif/scene-451x461.heic")).layout == nil)
    }

    /// A 3×2 grid of 64×64 tiles cropped to 181×121 (`scripts/generate/heic_grid.py`): partial tiles, and
    /// partial blocks at every reduction, which must land at the right and bottom whatever the rotation.
    static let grid = Corpus.fixtures.appendingPathComponent("generated/heic-grid-3x2-irot1.heic").path

    /// Files with their rotation as stored (`nil`) or as set by rewriting their `irot` box.
    static let rotations: [(String, UInt8?)] =
        [("heic-avif/arrow-irot0.heic", nil), ("heic-avif/arrow.heic", nil), ("heic-avif/RGB_8__128x128.heif", nil)]
        + (UInt8(0)...3).map { (grid, $0) }

    @Test("every rotation and reduction matches libheif's RGB", arguments: rotations)
    func matchesLibheif(name: String, quarterTurns: UInt8?) throws {
        let original = name.hasPrefix("/") ? Array(try Data(contentsOf: URL(fileURLWithPath: name))) : try Self.bytes(name)
        do {
            let file = try Self.open(quarterTurns.map { Self.rotated(original, quarterTurns: $0) } ?? original)
            let layout = try #require(file.layout, "\(name)")
            let libheif = try HEIFPlanarDecodeTests.rows(HEIFFrameDecoder(source: file, thumbnail: nil))
            let full = try HEIFPlanarDecodeTests.rows(HEVCRowDecoder(source: file, layout: layout, scale: 1))
            try #require(full.count == libheif.count)
            let largest = ByteDifference(full, libheif).largest
            #expect(largest <= 1, "\(name), \(layout.quarterTurns) quarter turns: largest difference \(largest)")
            for scale in [2, 4, 8] {
                let decoder = HEVCRowDecoder(source: file, layout: layout, scale: scale)
                #expect(decoder.size == file.reduction(scale: scale).size)
                let reduced = try HEIFPlanarDecodeTests.rows(decoder)
                let reference = HEIFPlanarDecodeTests.blockAverage(libheif, size: file.pixelSize, scale: scale)
                try #require(reduced.count == reference.count)
                let mean = ByteDifference.mean(reduced, reference)
                #expect(mean < 0.6, "\(name), \(layout.quarterTurns) quarter turns, 1/\(scale): mean difference \(mean)")
            }
        }
    }

    @Test("tiles decoded on one thread or many give the same planes")
    func threadsAgree() throws {
        let file = try Self.open(Self.bytes("heic-avif/arrow-irot0.heic"))
        let layout = try #require(file.layout)
        let bytes = UnsafeRawBufferPointer(start: file.bytes.base, count: file.bytes.count)
        let one = try #require(try YCbCrPlanes.decode(layout, file: bytes, threads: 1, format: .heic))
        let many = try #require(try YCbCrPlanes.decode(layout, file: bytes, threads: 7, format: .heic))
        #expect(one.matrix == many.matrix)
        let luma = one.width * one.height
        let chroma = one.chromaWidth * one.chromaHeight
        #expect(memcmp(one.luma, many.luma, luma) == 0)
        #expect(memcmp(one.cb, many.cb, chroma) == 0)
        #expect(memcmp(one.cr, many.cr, chroma) == 0)
    }

    @Test("damaged tile data fails with an error that names the tile")
    func damaged() throws {
        var bytes = try Self.bytes("heic-avif/arrow-irot0.heic")
        let layout = try #require(try Self.open(bytes).layout)
        // The tenth tile's first NAL unit claims to be longer than the tile's data.
        let at = layout.tiles[9].extents[0].offset
        bytes.replaceSubrange(at..<(at + 4), with: [0x7f, 0xff, 0xff, 0xff])
        let file = try Self.open(bytes)
        for scale in [1, 8] {
            #expect {
                _ = try HEIFPlanarDecodeTests.rows(HEVCRowDecoder(source: file, layout: try #require(file.layout), scale: scale))
            } throws: { error in
                let text = "\(error)"
                return text.contains("tile 10 of 48") && text.contains("runs past the end of its data")
            }
        }
        // Garbage inside a tile's slice data decodes to wrong pixels or fails; it never crashes or hangs.
        var garbled = try Self.bytes("heic-avif/arrow-irot0.heic")
        for i in stride(from: at + 40, to: at + layout.tiles[9].extents[0].length, by: 7) { garbled[i] ^= 0x5a }
        let garbledFile = try Self.open(garbled)
        _ = try? HEIFPlanarDecodeTests.rows(HEVCRowDecoder(source: garbledFile, layout: try #require(garbledFile.layout), scale: 4))
    }

    @Test("a region decodes only the tiles it meets, with the same pixels inside it")
    func regionDecodesItsTiles() throws {
        let file = try Self.open(Self.bytes("heic-avif/arrow-irot0.heic"))
        let layout = try #require(file.layout)
        let bytes = UnsafeRawBufferPointer(start: file.bytes.base, count: file.bytes.count)
        // The middle of the photo: columns 1000–2999, rows 1000–1999 of 4032×3024.
        let middle = IntRect(x: 1000, y: 1000, width: 2000, height: 1000)
        let planes = try #require(try YCbCrPlanes.decode(layout, file: bytes, region: middle, threads: 2, format: .heic))
        #expect(planes.tilesDecoded == 5 * 3)
        for scale in [1, 4] {
            let region = IntRect(x: 1000 / scale, y: 1000 / scale, width: 2000 / scale, height: 1000 / scale)
            let whole = try HEIFPlanarDecodeTests.rows(HEVCRowDecoder(source: file, layout: layout, scale: scale))
            let part = try HEIFPlanarDecodeTests.rows(HEVCRowDecoder(source: file, layout: layout, scale: scale, region: region))
            let width = file.reduction(scale: scale).size.width
            for y in region.minY..<region.maxY {
                let range = (3 * (y * width + region.minX))..<(3 * (y * width + region.maxX))
                #expect(whole[range] == part[range], "row \(y) at 1/\(scale)")
                if whole[range] != part[range] { break }
            }
        }
    }

    @Test("crops and filled thumbnails render the same pixels as the whole image, at every rotation")
    func cropsRenderAsTheWhole() throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Self.grid)))
        for turns in UInt8(0)...3 {
            let file = try Self.open(Self.rotated(original, quarterTurns: turns))
            #expect(file.layout != nil)
            let whole = try context.renderBitmapSynchronously(file.image)
            // A crop inside one corner tile, one across tiles, and one at the bottom right edge.
            let size = file.displaySize
            for rect in [
                IntRect(x: 3, y: 5, width: 20, height: 17), IntRect(x: 40, y: 50, width: 60, height: 70),
                IntRect(x: size.width - 30, y: size.height - 25, width: 30, height: 25),
            ] {
                let crop = try context.renderBitmapSynchronously(file.image.cropped(to: rect).movedToOrigin())
                var same = true
                for y in 0..<rect.height {
                    for x in 0..<(rect.width * 3) {
                        let a = crop.bytes[y * crop.bytesPerRow + x]
                        let b = whole.bytes[(rect.minY + y) * whole.bytesPerRow + rect.minX * 3 + x]
                        if a != b { same = false }
                    }
                }
                #expect(same, "\(turns) quarter turns, crop \(rect)")
            }
            // A filled square thumbnail reads the middle only: the same pixels as when every tile is decoded.
            for mode in [ContentMode.aspectFill, .aspectFit] {
                let target = IntSize(width: 24, height: 24)
                let thumb = try context.renderBitmapSynchronously(file.image.thumbnail(size: target, mode: mode))
                let reference = try context.renderBitmapSynchronously(Image(source: WholeDecode(inner: file)).thumbnail(size: target, mode: mode))
                #expect(thumb.bytes == reference.bytes, "\(turns) quarter turns, \(mode)")
            }
        }
    }

    @Test("a stored thumbnail is read straight through libde265 too, upright, as libheif decodes it", arguments: [0, 1, 2, 3])
    func storedThumbnail(quarterTurns: UInt8) throws {
        // The iPhone's 320x240 thumbnail with every rotation, and as the iPhone stored it (turned by `irot`).
        for (name, turns) in [("heic-avif/arrow-irot0.heic", quarterTurns), ("heic-avif/arrow.heic", nil)] {
            let original = try Self.bytes(name)
            let file = try Self.open(turns.map { Self.rotated(original, quarterTurns: $0) } ?? original)
            let thumbnail = try #require(file.thumbnail, "\(name)")
            let layout = try #require(thumbnail.layout, "\(name): the thumbnail is one coded image")
            #expect(layout.tiles.count == 1 && layout.displayed == thumbnail.size)
            let decoder = try file.makeDecoder(scale: StoredThumbnail.scale)
            #expect(decoder is HEVCRowDecoder && decoder.size == thumbnail.size)
            let direct = try HEIFPlanarDecodeTests.rows(decoder)
            let libheif = try HEIFPlanarDecodeTests.rows(HEIFFrameDecoder(source: file, thumbnail: thumbnail))
            try #require(direct.count == libheif.count && direct.count == thumbnail.size.width * thumbnail.size.height * 3)
            let largest = ByteDifference(direct, libheif).largest
            #expect(largest <= 1, "\(name), \(layout.quarterTurns) quarter turns: largest difference \(largest)")
        }
    }
}

/// A source that always decodes the whole image: ``ImageSource``'s default `makeDecoder(scale:region:)`.
private struct WholeDecode: ImageSource {
    let inner: HEIFSource
    var pixelSize: IntSize { inner.pixelSize }
    var hasAlpha: Bool { inner.hasAlpha }
    var decodeScales: [Int] { inner.decodeScales }
    func reduction(scale: Int) -> DecodeReduction { inner.reduction(scale: scale) }
    func makeDecoder(scale: Int) throws -> any RowDecoder { try inner.makeDecoder(scale: scale) }
}
