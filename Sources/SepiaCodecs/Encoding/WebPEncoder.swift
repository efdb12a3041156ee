internal import CWebP
import SepiaImage

/// Encodes a bitmap with libwebp (lossy at a quality, or lossless). Writes no metadata.
enum WebPEncoder {
    static func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        var rgb = bitmap
        if bitmap.layout == .gray || bitmap.layout == .grayAlpha {
            rgb = expand(bitmap)
        }
        guard rgb.width <= 16383, rgb.height <= 16383 else {
            throw CodecError(.encodingFailed, format: .webp, "WebP images are at most 16383 pixels per side; this one is \(rgb.width)x\(rgb.height)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size: Int = rgb.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            let w = Int32(rgb.width), h = Int32(rgb.height), stride = Int32(rgb.bytesPerRow)
            let q = Float(options.quality)
            switch (rgb.layout, options.lossless) {
            case (.rgba, false): return WebPEncodeRGBA(base, w, h, stride, q, &output)
            case (.rgba, true): return WebPEncodeLosslessRGBA(base, w, h, stride, &output)
            case (_, false): return WebPEncodeRGB(base, w, h, stride, q, &output)
            case (_, true): return WebPEncodeLosslessRGB(base, w, h, stride, &output)
            }
        }
        defer { WebPFree(output) }
        guard size > 0, let output else {
            throw CodecError(.encodingFailed, format: .webp, "libwebp could not encode the image")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func expand(_ bitmap: Bitmap) -> Bitmap {
        let alpha = bitmap.layout == .grayAlpha
        var bytes = [UInt8]()
        bytes.reserveCapacity(bitmap.width * bitmap.height * (alpha ? 4 : 3))
        let step = bitmap.layout.channels
        var i = 0
        while i < bitmap.bytes.count {
            let g = bitmap.bytes[i]
            bytes.append(g)
            bytes.append(g)
            bytes.append(g)
            if alpha { bytes.append(bitmap.bytes[i + 1]) }
            i += step
        }
        return Bitmap(width: bitmap.width, height: bitmap.height, layout: alpha ? .rgba : .rgb, bytes: bytes)
    }
}
