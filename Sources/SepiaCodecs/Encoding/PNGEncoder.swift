internal import CPNG
import SepiaImage

/// Encodes a bitmap with libpng's simplified API. Writes no metadata.
enum PNGEncoder {
    static func encode(_ bitmap: Bitmap) throws(CodecError) -> [UInt8] {
        var image = png_image()
        image.version = cpng_image_version()
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        switch bitmap.layout {
        case .gray: image.format = 0
        case .grayAlpha: image.format = UInt32(PNG_FORMAT_FLAG_ALPHA)
        case .rgb: image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        case .rgba: image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        }
        defer { png_image_free(&image) }
        let stride = Int32(bitmap.bytesPerRow)
        var size: png_alloc_size_t = 0
        let measured = bitmap.bytes.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, stride, nil)
        }
        guard measured != 0, size > 0 else { throw failure(image) }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            bitmap.bytes.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, raw.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw failure(image) }
        output.removeSubrange(Int(size)...)
        return output
    }

    private static func failure(_ image: png_image) -> CodecError {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return CodecError(.encodingFailed, format: .png, text.isEmpty ? "libpng could not encode the image" : text)
    }
}
