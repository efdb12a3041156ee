public import SepiaImage

/// Renders and encodes images as JPEG, PNG or WebP. Outputs carry no metadata: orientation is baked into the
/// pixels, colours are sRGB (no profile is embedded), and EXIF, XMP and comments of the source never reach
/// the output.
public enum ImageEncoding {
    /// Renders `image` and encodes it. JPEG streams rows into the encoder as they render; PNG and WebP encode
    /// the rendered bitmap.
    public static func encode(
        _ image: Image, as format: ImageFormat, options: EncodeOptions = EncodeOptions(), context: RenderContext
    ) async throws -> [UInt8] {
        switch format {
        case .jpeg:
            let sink = JPEGRowSink(options: options)
            try await context.render(image, layout: .rgb, into: sink)
            return sink.output
        case .png, .webp:
            let bitmap = try await context.renderBitmap(image, layout: image.isOpaque ? .rgb : .rgba)
            return try encode(bitmap, as: format, options: options)
        default:
            throw CodecError(.encodingFailed, format: format, "Sepia writes JPEG, PNG and WebP, not \(format)")
        }
    }

    /// Like ``encode(_:as:options:context:)``, blocking the calling thread.
    public static func encodeSynchronously(
        _ image: Image, as format: ImageFormat, options: EncodeOptions = EncodeOptions(), context: RenderContext
    ) throws -> [UInt8] {
        switch format {
        case .jpeg:
            let sink = JPEGRowSink(options: options)
            try context.renderSynchronously(image, layout: .rgb, into: sink)
            return sink.output
        case .png, .webp:
            let bitmap = try context.renderBitmapSynchronously(image, layout: image.isOpaque ? .rgb : .rgba)
            return try encode(bitmap, as: format, options: options)
        default:
            throw CodecError(.encodingFailed, format: format, "Sepia writes JPEG, PNG and WebP, not \(format)")
        }
    }

    /// Encodes pixels already rendered.
    public static func encode(_ bitmap: Bitmap, as format: ImageFormat, options: EncodeOptions = EncodeOptions()) throws(CodecError) -> [UInt8] {
        switch format {
        case .jpeg:
            var source = bitmap
            if bitmap.layout.hasAlpha {
                source = flattened(bitmap)
            }
            let sink = JPEGRowSink(options: options)
            do {
                try sink.begin(width: source.width, height: source.height, layout: source.layout)
                try sink.write(rows: source.bytes, rowCount: source.height)
                try sink.finish()
            } catch let error as CodecError {
                throw error
            } catch {
                throw CodecError(.encodingFailed, format: .jpeg, "\(error)")
            }
            return sink.output
        case .png:
            return try PNGEncoder.encode(bitmap)
        case .webp:
            return try WebPEncoder.encode(bitmap, options: options)
        default:
            throw CodecError(.encodingFailed, format: format, "Sepia writes JPEG, PNG and WebP, not \(format)")
        }
    }

    /// Drops alpha by compositing over white (in sRGB-encoded values, as the pixels are already encoded).
    private static func flattened(_ bitmap: Bitmap) -> Bitmap {
        let gray = bitmap.layout == .grayAlpha
        let channels = bitmap.layout.channels
        var out = [UInt8]()
        out.reserveCapacity(bitmap.width * bitmap.height * (gray ? 1 : 3))
        var i = 0
        while i < bitmap.bytes.count {
            let a = Int(bitmap.bytes[i + channels - 1])
            for c in 0..<(channels - 1) {
                out.append(UInt8((Int(bitmap.bytes[i + c]) * a + 255 * (255 - a) + 127) / 255))
            }
            i += channels
        }
        return Bitmap(width: bitmap.width, height: bitmap.height, layout: gray ? .gray : .rgb, bytes: out)
    }
}
