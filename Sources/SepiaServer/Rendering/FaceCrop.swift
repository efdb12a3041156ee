import Crypto
import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary

/// A face's picture (`GET /api/v1/faces/{id}/image`): a square around the face, cut from the asset's preview (its
/// current version as shown, which the renditions machinery keeps or makes) and scaled to the size asked for.
///
/// The square is centred on the face's box, its side the box's longer side with 40 % of it added on every side
/// (so that the head, not only the face, shows), moved to stay inside the picture and no larger than the picture's
/// shorter side. Its bytes depend on the version, the box and the size alone, so its entity tag is known before
/// it is rendered: a browser revalidating a face it has is answered `304` without a render.
enum FaceCrop {
    /// The size of the preview faces are cut from (the standard preview's: what an upload's job makes).
    static let sourceSize = IntSize(width: 1440, height: 1440)
    /// The padding on every side of the box, as a fraction of its longer side.
    static let padding = 0.4
    /// The JPEG quality of face pictures.
    static let quality = 85

    /// The square of a `width` × `height` picture that shows `box`.
    static func square(around box: FaceBox, width: Int, height: Int) -> IntRect {
        let w = Double(width)
        let h = Double(height)
        let longer = max(box.width * w, box.height * h)
        let side = min(Double(min(width, height)), max(1, longer * (1 + 2 * padding)))
        let centreX = (box.x + box.width / 2) * w
        let centreY = (box.y + box.height / 2) * h
        let x = min(max(0, centreX - side / 2), w - side)
        let y = min(max(0, centreY - side / 2), h - side)
        let pixels = max(1, Int(side.rounded()))
        return IntRect(
            x: min(max(0, Int(x.rounded())), max(0, width - pixels)), y: min(max(0, Int(y.rounded())), max(0, height - pixels)),
            width: min(pixels, width), height: min(pixels, height))
    }

    /// The version of `face`'s pictures in `asset`, whatever their size: 32 hexadecimal digits of a hash of what
    /// their bytes are made from (and of Sepia's version, whose renderer makes them). The people list gives it, so
    /// that a picture asked for with `v` set to it is cached for good (a new version is a new URL).
    static func version(of face: Face, in asset: Asset) -> String {
        let box = face.boundingBox
        let key = "face-image/\(SepiaVersion.current)/\(asset.id)/\(asset.contentVersion)/\(box.x),\(box.y),\(box.width),\(box.height)/\(quality)"
        return SHA256.hash(data: Data(key.utf8)).hexPrefix()
    }

    /// The entity tag of the picture of `face` in `asset` at `size`: its ``version(of:in:)`` and its size, hashed.
    static func tag(of face: Face, in asset: Asset, size: Int) -> String {
        SHA256.hash(data: Data("\(version(of: face, in: asset))/\(size)".utf8)).hexPrefix()
    }

    /// The picture of `box`, `size` pixels square, cut from `preview` (the asset's preview) and encoded as JPEG.
    static func render(_ box: FaceBox, from preview: Rendition, size: Int, context: RenderContext) async throws -> Rendition {
        let image = try preview.image()
        let rect = square(around: box, width: image.extent.width, height: image.extent.height)
        let picture = image.movedToOrigin().cropped(to: rect).movedToOrigin().resized(to: IntSize(width: size, height: size))
        let bitmap = try await context.renderBitmap(picture, layout: .rgb)
        try Task.checkCancellation()
        let data = try ImageEncoding.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: quality))
        return Rendition(data: data, pixelSize: bitmap.size)
    }
}
