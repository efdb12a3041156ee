internal import CHeif
import SepiaImage

/// Decodes an 8-bit HEIF image without alpha to planar RGB and makes interleaved rows from the planes on
/// demand, reduced by `scale` (1, 2, 4 or 8) by averaging each block of pixels, as JPEG's DCT scaling does.
///
/// libheif 1.15 always converts the codec's YCbCr to RGB, and its planar output is the cheaper one (on a 12 MP
/// iPhone photo 0.33 s against 0.41 s for interleaved RGB, the decode included); asking for YCbCr costs more
/// still, as libheif then converts twice. Making rows from the planes here also means the engine never holds
/// a second full-size frame: a 1/4 decode keeps one sixteenth of the pixels.
final class HEIFPlanarDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat = .rgb8
    let color: SourceColor
    var decodesIncrementally: Bool { true }

    private let source: HEIFSource
    private let scale: Int
    private var planes: DecodedPlanes?
    private var nextRow = 0

    /// `scale` is 1, 2, 4 or 8.
    init(source: HEIFSource, scale: Int) {
        precondition([1, 2, 4, 8].contains(scale))
        self.source = source
        self.scale = scale
        size = source.reduction(scale: scale).size
        color = source.sourceColor
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let base = buffer.baseAddress, nextRow < size.height else {
            planes = nil
            return 0
        }
        if planes == nil {
            do {
                planes = try DecodedPlanes(source: source)
            } catch {
                throw error.naming(source.file)
            }
        }
        guard let planes else { return 0 }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
        for r in 0..<rows {
            let out = (base + r * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if scale == 1 {
                planes.interleave(row: nextRow + r, into: out)
            } else {
                planes.average(row: nextRow + r, scale: scale, outWidth: size.width, into: out)
            }
        }
        nextRow += rows
        if nextRow == size.height { self.planes = nil }
        return rows
    }
}

/// The R, G and B planes of one decoded image.
private final class DecodedPlanes {
    private let image: OpaquePointer
    private let width: Int
    private let height: Int
    private let planes: [UnsafePointer<UInt8>]
    private let strides: [Int]
    private var sums: [UInt32] = []

    init(source: HEIFSource) throws(CodecError) {
        let fmt = source.format
        let context = try HEIFContext(bytes: source.bytes, format: fmt, options: DecodeOptions(maximumPixels: Int.max))
        let handle = try context.primaryImage()
        defer { heif_image_handle_release(handle) }
        var decoded: OpaquePointer?
        let err = heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_444, nil)
        guard err.code == heif_error_Ok, let decoded else { throw HEIFContext.error(err, format: fmt, "cannot decode the image") }
        image = decoded
        width = Int(heif_image_get_primary_width(decoded))
        height = Int(heif_image_get_primary_height(decoded))
        var planes: [UnsafePointer<UInt8>] = []
        var strides: [Int] = []
        for channel in [heif_channel_R, heif_channel_G, heif_channel_B] {
            var stride: Int32 = 0
            guard heif_image_get_bits_per_pixel_range(decoded, channel) == 8,
                let plane = heif_image_get_plane_readonly(decoded, channel, &stride)
            else { break }
            planes.append(plane)
            strides.append(Int(stride))
        }
        self.planes = planes
        self.strides = strides
        guard planes.count == 3, width == source.pixelSize.width, height == source.pixelSize.height else {
            throw CodecError(.corruptData, format: fmt, "the decoded image is not the 8-bit \(source.pixelSize) RGB the header declares")
        }
    }

    deinit {
        heif_image_release(image)
    }

    /// Row `row` at full size.
    func interleave(row: Int, into out: UnsafeMutablePointer<UInt8>) {
        let r = planes[0] + row * strides[0]
        let g = planes[1] + row * strides[1]
        let b = planes[2] + row * strides[2]
        for x in 0..<width {
            out[3 * x] = r[x]
            out[3 * x + 1] = g[x]
            out[3 * x + 2] = b[x]
        }
    }

    /// Row `row` of the image reduced by `scale` (a power of two): each pixel the rounded average of its block,
    /// the partial blocks at the right and bottom edges included.
    func average(row: Int, scale: Int, outWidth: Int, into out: UnsafeMutablePointer<UInt8>) {
        let shift = scale.trailingZeroBitCount
        let y0 = row * scale
        let y1 = min(y0 + scale, height)
        if sums.count < outWidth { sums = [UInt32](repeating: 0, count: outWidth) }
        let rows = UInt32(y1 - y0)
        let lastColumns = UInt32(width - (outWidth - 1) * scale)
        sums.withUnsafeMutableBufferPointer { sums in
            for c in 0..<3 {
                for i in 0..<outWidth { sums[i] = 0 }
                for y in y0..<y1 {
                    let line = planes[c] + y * strides[c]
                    for x in 0..<width { sums[x &>> shift] &+= UInt32(line[x]) }
                }
                let full = rows * UInt32(scale)
                for ox in 0..<outWidth {
                    let n = ox == outWidth - 1 ? rows * lastColumns : full
                    out[3 * ox + c] = UInt8((sums[ox] + n / 2) / n)
                }
            }
        }
    }
}
