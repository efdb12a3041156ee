internal import CLibRaw
import Foundation
import SepiaCodecs
import SepiaImage

/// Develops a RAW file's sensor data and hands the rows out as they are asked for, in one of two ways:
/// - **streamed** (half size, Bayer sensors): LibRaw unpacks the sensor data, and each row asked for is developed
///   from it then (`sepia_raw_half_rows`: each 2×2 block one pixel, LibRaw's half-size development to the bit), so
///   the sensor data is the only whole frame in memory;
/// - **LibRaw's development** (full size, other sensors, noise reduction, highlight recovery): LibRaw develops the
///   whole image when the decoder is created, and the rows are copied out of it.
///
/// Either way the handle, and what LibRaw holds, is released after the last row. The rows are 16-bit linear light
/// in sRGB primaries. The brightness (dcraw's automatic brightness: 1 % of the pixels white, scaled by the
/// development's boost) and the exposure are one gain, given to the engine as the colour matrix, so that nothing is
/// clipped before the engine's float pipeline.
final class RAWRowDecoder: RowDecoder {
    let size: IntSize
    let color: SourceColor
    /// Whether the rows are developed here as they are read, rather than copied from LibRaw's developed image.
    let streams: Bool
    private var handle: LibRawHandle?
    /// LibRaw's developed image, when it developed one.
    private let image: UnsafePointer<UInt16>?
    private let developed: IntSize
    private var nextRow = 0

    /// Develops `source`'s sensor data at half or full size; `libRawDevelopment` has LibRaw develop the half size
    /// itself too (what the streamed development is compared with).
    init(source: RAWSource, half: Bool, size: IntSize, libRawDevelopment: Bool = false) throws(CodecError) {
        self.size = size
        let handle = try LibRawHandle(input: source.input, options: source.options, file: source.file)
        sepia_raw_set_deadline(handle.raw, source.options.developTimeout)
        var options = Self.options(source.development, cameraColor: source.cameraColor)
        options.half_size = half ? 1 : 0
        var width: Int32 = 0
        var height: Int32 = 0
        var status: Int32 = 1
        if half && !libRawDevelopment {
            status = sepia_raw_prepare_half(handle.raw, &options, &width, &height)
            guard status >= 0 else { throw LibRawHandle.error(status, file: source.file, stage: "developing the sensor data") }
        }
        streams = status == 0
        var pixels: UnsafePointer<UInt16>?
        if !streams {
            status = sepia_raw_develop(handle.raw, &options)
            guard status == 0 else { throw LibRawHandle.error(status, file: source.file, stage: "developing the sensor data") }
            pixels = sepia_raw_image(handle.raw, &width, &height)
        }
        image = pixels
        if sepia_raw_data_errors(handle.raw) > 0 {
            if source.options.limits.strict {
                throw CodecError(.damagedData, format: .cameraRAW, "the RAW data is damaged in places", file: source.file)
            }
            source.decodeWarnings.add("the RAW data is damaged in places; LibRaw developed what it could read")
        }
        guard width > 0, height > 0, streams || pixels != nil else {
            throw CodecError(.corruptData, format: .cameraRAW, "LibRaw developed no image", file: source.file)
        }
        developed = IntSize(width: Int(width), height: Int(height))
        self.handle = handle
        var histogram = [UInt32](repeating: 0, count: 3 * 8192)
        status = histogram.withUnsafeMutableBufferPointer { counts in
            guard let counts = counts.baseAddress else { return 0 }
            if let pixels {
                Self.count(pixels, pixels: Int(width) * Int(height), into: counts)
                return 0
            }
            return sepia_raw_half_histogram(handle.raw, counts)
        }
        guard status == 0 else { throw LibRawHandle.error(status, file: source.file, stage: "developing the sensor data") }
        let white = Self.whiteLevel(histogram, pixels: developed.width * developed.height)
        let automatic = 65536 / Double(max(white, 256))
        let gain = Float(pow(automatic, source.development.boost) * pow(2, source.development.exposure))
        let matrix = Matrix3(SIMD3(gain, 0, 0), SIMD3(0, gain, 0), SIMD3(0, 0, gain))
        color = SourceColor(name: "linear sRGB", curves: SourceColor.sRGB.curves, matrix: matrix)
    }

    /// LibRaw's parameters for a development (the size is set apart).
    static func options(_ development: RAWDevelopment, cameraColor: RAWCameraColor) -> sepia_raw_develop_options {
        var options = sepia_raw_develop_options()
        options.quality = 3
        switch development.whiteBalance {
        case .asShot:
            options.use_camera_wb = 1
        case .daylight:
            options.use_camera_wb = 0
        case .multipliers(let r, let g, let b):
            options.use_camera_wb = 0
            options.user_mul = (Float(r), Float(g), Float(b), Float(g))
        case .neutral(let temperature, let tint):
            let m = cameraColor.multipliers(temperature: temperature, tint: tint)
            options.use_camera_wb = 0
            options.user_mul = (Float(m.x), Float(m.y), Float(m.z), Float(m.y))
        }
        options.noise_threshold = Float(development.noiseReduction * 1000)
        options.highlight = development.recoverHighlights ? 5 : 0
        return options
    }

    var format: SourcePixelFormat { .rgba16LinearPremultiplied }
    var decodesIncrementally: Bool { true }

    /// dcraw's histogram of developed pixels (R, G, B of four samples a pixel): 8192 counters a channel, of each
    /// sample shifted right by 3.
    static func count(_ image: UnsafePointer<UInt16>, pixels: Int, into h: UnsafeMutablePointer<UInt32>) {
        for i in 0..<pixels {
            let p = image + 4 * i
            h[Int(p[0] >> 3)] += 1
            h[8192 + Int(p[1] >> 3)] += 1
            h[16384 + Int(p[2] >> 3)] += 1
        }
    }

    /// dcraw's white level from the histogram of `pixels` pixels: for each channel, the value 1 % of the pixels
    /// exceed (in steps of 8); the highest.
    static func whiteLevel(_ histogram: [UInt32], pixels: Int) -> Int {
        let percentile = Int(Double(pixels) * 0.01)
        var white = 32
        for c in 0..<3 {
            var total = 0
            var value = 0x2000
            while value > 32 {
                value -= 1
                total += Int(histogram[c * 8192 + value])
                if total > percentile { break }
            }
            white = max(white, value)
        }
        return white << 3
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let handle, let base = buffer.baseAddress, bytesPerRow >= 8 * size.width else { return 0 }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
        guard rows > 0 else { return 0 }
        if let image {
            for r in 0..<rows {
                let y = min(nextRow + r, developed.height - 1)
                let source = image + 4 * y * developed.width
                let row = (base + r * bytesPerRow).assumingMemoryBound(to: UInt16.self)
                for x in 0..<size.width {
                    let p = source + 4 * min(x, developed.width - 1)
                    row[4 * x] = p[0]
                    row[4 * x + 1] = p[1]
                    row[4 * x + 2] = p[2]
                    row[4 * x + 3] = 0xFFFF
                }
            }
        } else {
            sepia_raw_half_rows(
                handle.raw, Int32(nextRow), Int32(rows), base.assumingMemoryBound(to: UInt16.self), bytesPerRow / 2, Int32(size.width))
        }
        nextRow += rows
        if nextRow == size.height { self.handle = nil }
        return rows
    }
}
