internal import CHeif
import Foundation
import SepiaImage
import Synchronization

/// The Y′CbCr 4:2:0 planes of a HEIF image's primary picture, decoded tile by tile through libde265 on every
/// core and assembled in place: no RGB frame is made, and each tile is freed as soon as it is copied.
///
/// libheif 1.15 decodes each tile into a new decoder with a thread of its own, converts it to RGB, then pastes
/// it into a full RGB frame; here one decoder per core takes tiles in turn, and the colour conversion is left
/// for the rows actually asked for, after any reduction.
final class YCbCrPlanes: @unchecked Sendable {
    /// The picture's size before rotation.
    let width: Int
    let height: Int
    let chromaWidth: Int
    let chromaHeight: Int
    let luma: UnsafeMutablePointer<UInt8>
    let cb: UnsafeMutablePointer<UInt8>
    let cr: UnsafeMutablePointer<UInt8>
    /// How Y′CbCr maps to R′G′B′: the first tile decoded's `colr` box, or else its bitstream's description.
    private(set) var matrix: YCbCrMatrix?
    /// How many tiles were decoded: those that meet the region asked for.
    private(set) var tilesDecoded = 0

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
        chromaWidth = (width + 1) / 2
        chromaHeight = (height + 1) / 2
        luma = .allocate(capacity: width * height)
        cb = .allocate(capacity: chromaWidth * chromaHeight)
        cr = .allocate(capacity: chromaWidth * chromaHeight)
    }

    deinit {
        luma.deallocate()
        cb.deallocate()
        cr.deallocate()
    }

    /// Decodes the tiles of `layout` that meet `region` (of the stored image; all of it by default) from `file`,
    /// on up to `threads` threads; the planes outside them are black. Returns `nil` when the bitstream asks for
    /// a conversion only libheif makes (a colour matrix derived from the primaries).
    static func decode(
        _ layout: HEVCImageLayout, file: UnsafeRawBufferPointer, region: IntRect? = nil, threads: Int, format: ImageFormat
    ) throws(CodecError)
        -> YCbCrPlanes?
    {
        let planes = YCbCrPlanes(width: layout.stored.width, height: layout.stored.height)
        let region = region ?? IntRect(size: layout.stored)
        let wanted = layout.tiles.indices.filter { index in
            let x = (index % layout.columns) * layout.tileSize.width
            let y = (index / layout.columns) * layout.tileSize.height
            return !IntRect(x: x, y: y, width: layout.tileSize.width, height: layout.tileSize.height).intersection(region).isEmpty
        }
        if wanted.count < layout.tiles.count {
            planes.luma.initialize(repeating: 0, count: planes.width * planes.height)
            planes.cb.initialize(repeating: 128, count: planes.chromaWidth * planes.chromaHeight)
            planes.cr.initialize(repeating: 128, count: planes.chromaWidth * planes.chromaHeight)
        }
        planes.tilesDecoded = wanted.count
        guard let firstWanted = wanted.first else {
            planes.matrix = YCbCrMatrix(coefficients: 6, primaries: 2, fullRange: true)
            return planes
        }
        let next = Atomic<Int>(0)
        let failure = Mutex<CodecError?>(nil)
        // What the first tile's bitstream says of its colour (`.some(nil)`: nothing Sepia converts).
        let firstTile = Mutex<YCbCrMatrix??>(nil)
        let workers = max(1, min(threads, wanted.count))
        let fileAddress = UInt(bitPattern: file.baseAddress)
        let fileCount = file.count
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let file = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: fileAddress), count: fileCount)
            guard let decoder = de265_new_decoder() else {
                failure.withLock { $0 = $0 ?? CodecError(.corruptData, format: format, "libde265 could not allocate a decoder") }
                return
            }
            defer { de265_free_decoder(decoder) }
            // Fewer tiles than threads (a single image, as most encoders but phones write): libde265 spreads a
            // picture's rows over worker threads of its own when the bitstream allows it (wavefront parallel
            // processing, which x265 turns on by default), and decodes on the caller's thread otherwise.
            if wanted.count < threads { _ = de265_start_worker_threads(decoder, Int32(threads)) }
            while failure.withLock({ $0 == nil }) {
                let claimed = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard claimed < wanted.count else { return }
                let index = wanted[claimed]
                do throws(CodecError) {
                    let matrix = try planes.decodeTile(index, of: layout, file: file, decoder: decoder, format: format)
                    if index == firstWanted { firstTile.withLock { $0 = .some(matrix) } }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        guard let bitstream = firstTile.withLock({ $0 }), let matrix = layout.tiles[firstWanted].matrix ?? bitstream else { return nil }
        planes.matrix = matrix
        return planes
    }

    /// Decodes tile `index` and copies it into place. Returns the colour description of its bitstream (`nil`
    /// when only libheif converts it).
    private func decodeTile(
        _ index: Int, of layout: HEVCImageLayout, file: UnsafeRawBufferPointer, decoder: UnsafeMutableRawPointer, format: ImageFormat
    ) throws(CodecError) -> YCbCrMatrix? {
        let tile = layout.tiles[index]
        let name = layout.tiles.count == 1 ? "the image" : "tile \(index + 1) of \(layout.tiles.count)"
        de265_reset(decoder)
        for nal in tile.parameterSets {
            nal.withUnsafeBytes { _ = de265_push_NAL(decoder, $0.baseAddress, Int32($0.count), 0, nil) }
        }
        if tile.extents.count == 1, let extent = tile.extents.first {
            guard extent.offset <= file.count, extent.length <= file.count - extent.offset else {
                throw CodecError(.truncatedData, format: format, "the data of \(name) lies past the end of the file")
            }
            try Self.push(UnsafeRawBufferPointer(rebasing: file[extent.offset..<(extent.offset + extent.length)]), tile, decoder, name, format)
        } else {
            var joined: [UInt8] = []
            for extent in tile.extents {
                guard extent.offset <= file.count, extent.length <= file.count - extent.offset else {
                    throw CodecError(.truncatedData, format: format, "the data of \(name) lies past the end of the file")
                }
                joined += file[extent.offset..<(extent.offset + extent.length)]
            }
            let pushed: CodecError? = joined.withUnsafeBytes { bytes in
                do throws(CodecError) {
                    try Self.push(bytes, tile, decoder, name, format)
                    return nil
                } catch {
                    return error
                }
            }
            if let pushed { throw pushed }
        }
        de265_flush_data(decoder)
        var picture: OpaquePointer?
        var more: Int32 = 1
        while more != 0 {
            more = 0
            let status = de265_decode(decoder, &more)
            if let image = de265_get_next_picture(decoder), picture == nil { picture = image }
            if status != DE265_OK {
                if picture != nil { break }
                throw Self.error(status, name, format)
            }
        }
        guard let picture else { throw CodecError(.corruptData, format: format, "\(name) holds no picture") }
        defer { de265_release_next_picture(decoder) }
        let w = Int(de265_get_image_width(picture, 0))
        let h = Int(de265_get_image_height(picture, 0))
        guard de265_get_chroma_format(picture) == de265_chroma_420, de265_get_bits_per_pixel(picture, 0) == 8,
            de265_get_bits_per_pixel(picture, 1) == 8, w == layout.tileSize.width, h == layout.tileSize.height
        else {
            throw CodecError(
                .corruptData, format: format, "\(name) decodes to \(w)x\(h), not the 8-bit 4:2:0 \(layout.tileSize) the file declares")
        }
        let x0 = (index % layout.columns) * w
        let y0 = (index / layout.columns) * h
        copy(picture, channel: 0, to: luma, stride: width, x0: x0, y0: y0, width: min(w, width - x0), height: min(h, height - y0))
        let cw = min((w + 1) / 2, chromaWidth - x0 / 2)
        let ch = min((h + 1) / 2, chromaHeight - y0 / 2)
        copy(picture, channel: 1, to: cb, stride: chromaWidth, x0: x0 / 2, y0: y0 / 2, width: cw, height: ch)
        copy(picture, channel: 2, to: cr, stride: chromaWidth, x0: x0 / 2, y0: y0 / 2, width: cw, height: ch)
        return YCbCrMatrix(
            coefficients: Int(de265_get_image_matrix_coefficients(picture)), primaries: Int(de265_get_image_colour_primaries(picture)),
            fullRange: de265_get_image_full_range_flag(picture) != 0)
    }

    /// Hands the NAL units in `data`, each after its length, to the decoder.
    private static func push(
        _ data: UnsafeRawBufferPointer, _ tile: HEVCImageLayout.Tile, _ decoder: UnsafeMutableRawPointer, _ name: String, _ format: ImageFormat
    ) throws(CodecError) {
        guard let base = data.baseAddress else { throw CodecError(.truncatedData, format: format, "\(name) has no data") }
        var at = 0
        while at < data.count {
            guard data.count - at >= tile.lengthSize else {
                throw CodecError(.truncatedData, format: format, "\(name) ends inside a NAL unit's length")
            }
            var length = 0
            for i in 0..<tile.lengthSize { length = length << 8 | Int(data[at + i]) }
            at += tile.lengthSize
            guard length <= data.count - at, length <= Int(Int32.max) else {
                throw CodecError(.truncatedData, format: format, "a NAL unit of \(name) runs past the end of its data")
            }
            let status = de265_push_NAL(decoder, base + at, Int32(length), 0, nil)
            guard de265_isOK(status) != 0 else { throw error(status, name, format) }
            at += length
        }
    }

    private func copy(
        _ picture: OpaquePointer, channel: Int32, to plane: UnsafeMutablePointer<UInt8>, stride: Int, x0: Int, y0: Int, width: Int,
        height: Int
    ) {
        var sourceStride: Int32 = 0
        guard width > 0, height > 0, let source = de265_get_image_plane(picture, channel, &sourceStride) else { return }
        for y in 0..<height {
            (plane + (y0 + y) * stride + x0).update(from: source + y * Int(sourceStride), count: width)
        }
    }

    private static func error(_ status: de265_error, _ name: String, _ format: ImageFormat) -> CodecError {
        let text = de265_get_error_text(status).map { String(cString: $0) } ?? "error \(status.rawValue)"
        return CodecError(.corruptData, format: format, "\(name) cannot be decoded: \(text)")
    }
}
