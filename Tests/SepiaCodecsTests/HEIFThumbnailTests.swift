import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// Phones store a small copy of every HEIC photo. A resize to at most that copy's size decodes the copy
/// instead of the 12 MP image, as the HEIF specification intends and libvips does; larger sizes decode the
/// image itself.
@Suite("HEIF stored thumbnails")
struct HEIFThumbnailTests {
    let context = RenderContext(options: RenderOptions(threadCount: 2))

    /// The same resize made from the fully decoded image.
    func fromFullDecode(_ file: any EncodedImage, size: IntSize) async throws -> Bitmap {
        let full = try await context.renderBitmap(file.image)
        return try await context.renderBitmap(Image(bitmap: full).thumbnail(size: size))
    }

    @Test(
        "a resize within the stored thumbnail's size uses it, upright and in the right colours",
        arguments: [
            // An iPhone 8 Plus photo with its rotation set to 0: a grid of 48 tiles, Display P3, a 320x240
            // thumbnail. The camera's thumbnail is a separate encode, so fine detail differs from the full decode
            // at this size: by 3.1 on average with pillow-heif's decodes resized by Pillow (Lanczos).
            ("heic-avif/arrow-irot0.heic", IntSize(width: 256, height: 192), 4.0),
            // The same photo as the camera wrote it: the grid rotated by the container (irot); the 240x320
            // thumbnail is rotated the same way.
            ("heic-avif/arrow.heic", IntSize(width: 192, height: 256), 4.0),
        ])
    func usesStoredThumbnail(name: String, size: IntSize, tolerance: Double) async throws {
        let file = try ImageDecoding.open(path: Corpus.path(name))
        #expect(file.decodeScales.contains { $0 > 8 }, "\(name) has a stored thumbnail")
        let small = try await context.renderBitmap(file.image.thumbnail(size: size))
        #expect(small.size == size)
        let reference = try await fromFullDecode(file, size: size)
        let difference = Corpus.meanDifference(small, reference)
        #expect(difference < tolerance, "\(name): mean difference \(difference) from the full decode")
        // A wrong rotation or colour space differs by far more: the same photo turned a half turn.
        let turned = try await context.renderBitmap(Image(bitmap: reference).oriented(.down))
        #expect(Corpus.meanDifference(small, turned) > 3 * difference, "\(name): the thumbnail is upright")
    }

    @Test("a resize larger than the stored thumbnail decodes the image itself")
    func largerThanThumbnail() async throws {
        let file = try ImageDecoding.open(path: Corpus.path("heic-avif/arrow.heic"))
        let size = IntSize(width: 600, height: 800)
        let resized = try await context.renderBitmap(file.image.thumbnail(size: size))
        let reference = try await fromFullDecode(file, size: size)
        // The decode may be reduced (planes averaged 2x2), which changes the result by rounding only; the
        // 240x320 thumbnail enlarged would differ by several levels.
        let difference = Corpus.meanDifference(resized, reference)
        #expect(difference < 1.0, "mean difference \(difference) from the full decode")
    }

    @Test("files without a usable stored thumbnail offer only decode-time reductions")
    func withoutThumbnail() throws {
        for name in ["heic-avif/rot1mir0.avif", "heic-avif/RGBA_8__128x128.heif", "heic-avif/scene-451x461.heic"] {
            let file = try ImageDecoding.open(path: Corpus.path(name))
            #expect(file.decodeScales.allSatisfy { $0 <= 8 }, "\(name)")
        }
    }
}
