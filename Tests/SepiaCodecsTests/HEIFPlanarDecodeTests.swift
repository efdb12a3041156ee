import Foundation
import SepiaImage
import Testing

@testable import SepiaCodecs

/// 8-bit HEIF images without alpha are decoded to planar RGB, and reduced by averaging the planes when a resize
/// asks for it. The reference is libheif's interleaved RGB.
@Suite("HEIF planes")
struct HEIFPlanarDecodeTests {
    static let files = [
        "heic-avif/arrow-irot0.heic", "heic-avif/arrow.heic", "heic-avif/RGB_8__128x128.heif",
        "heic-avif/hopper.avif", "heic-avif/rot1mir0.avif", "heic-avif/rot2mir1.avif",
        "heic-avif/scene-451x461.heic", "heic-avif/exif.avif",
    ]

    /// Every row a decoder delivers.
    static func rows(_ decoder: any RowDecoder) throws -> [UInt8] {
        let bytesPerRow = decoder.size.width * decoder.format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * decoder.size.height)
        var row = 0
        try pixels.withUnsafeMutableBytes { raw in
            while row < decoder.size.height {
                let got = try decoder.readRows(into: UnsafeMutableRawBufferPointer(rebasing: raw[(row * bytesPerRow)...]), bytesPerRow: bytesPerRow)
                if got == 0 { break }
                row += got
            }
        }
        return pixels
    }

    /// `pixels` (RGB, `size`) averaged over blocks of `scale`, partial blocks at the edges included.
    static func blockAverage(_ pixels: [UInt8], size: IntSize, scale: Int) -> [Double] {
        let w = (size.width + scale - 1) / scale
        let h = (size.height + scale - 1) / scale
        var out = [Double](repeating: 0, count: w * h * 3)
        for oy in 0..<h {
            for ox in 0..<w {
                let ys = (oy * scale)..<min(oy * scale + scale, size.height)
                let xs = (ox * scale)..<min(ox * scale + scale, size.width)
                for c in 0..<3 {
                    var sum = 0
                    for y in ys { for x in xs { sum += Int(pixels[(y * size.width + x) * 3 + c]) } }
                    out[(oy * w + ox) * 3 + c] = Double(sum) / Double(ys.count * xs.count)
                }
            }
        }
        return out
    }

    @Test("full size matches libheif's conversion to RGB", arguments: files)
    func fullSize(name: String) throws {
        let file = try #require(try ImageDecoding.open(path: Corpus.path(name)) as? HEIFSource)
        #expect(file.reducesPlanes)
        let planar = try Self.rows(HEIFPlanarDecoder(source: file, scale: 1))
        let libheif = try Self.rows(HEIFFrameDecoder(source: file, thumbnail: nil))
        try #require(planar.count == libheif.count)
        let difference = ByteDifference(planar, libheif)
        #expect(difference.mean < 0.1, "\(name): mean difference \(difference.mean)")
        #expect(difference.largest <= 1, "\(name): largest difference \(difference.largest)")
    }

    @Test("reduced decodes match libheif's RGB averaged over the same blocks", arguments: files)
    func reduced(name: String) throws {
        let file = try #require(try ImageDecoding.open(path: Corpus.path(name)) as? HEIFSource)
        let libheif = try Self.rows(HEIFFrameDecoder(source: file, thumbnail: nil))
        for scale in [2, 4, 8] {
            let decoder = HEIFPlanarDecoder(source: file, scale: scale)
            #expect(decoder.size == file.reduction(scale: scale).size)
            let planar = try Self.rows(decoder)
            let reference = Self.blockAverage(libheif, size: file.pixelSize, scale: scale)
            try #require(planar.count == reference.count)
            let mean = ByteDifference.mean(planar, reference)
            #expect(mean < 0.6, "\(name) at 1/\(scale): mean difference \(mean)")
        }
    }

    @Test("images with alpha or more than 8 bits keep libheif's decode")
    func notPlanar() throws {
        for name in ["heic-avif/RGBA_8__128x128.heif", "heic-avif/transparency.avif"] {
            let file = try #require(try ImageDecoding.open(path: Corpus.path(name)) as? HEIFSource)
            #expect(!file.reducesPlanes, "\(name)")
            #expect(file.decodeScales.allSatisfy { $0 == 1 || $0 > 8 }, "\(name)")
        }
    }
}
