internal import CLibRaw
import Foundation
import SepiaCodecs
import SepiaImage

/// Develops a RAW file's sensor data with LibRaw when created, then hands the rows out as they are asked for:
/// LibRaw's own image is the only whole frame in memory, and it is released after the last row.
///
/// The rows are 16-bit linear light in sRGB primaries. The brightness (dcraw's automatic brightness: 1 % of the
/// pixels white, scaled by the development's boost) and the exposure are one gain, given to the engine as the
/// colour matrix, so that nothing is clipped before the engine's float pipeline.
final class RAWRowDecoder: RowDecoder {
    let size: IntSize
    let color: SourceColor
    private var handle: LibRawHandle?
    private let image: UnsafePointer<UInt16>
    private let developed: IntSize
    private var nextRow = 0

    init(source: RAWSource, half: Bool, size: IntSize) throws(CodecError) {
        self.size = size
        let handle = try LibRawHandle(input: source.input, options: source.options, file: source.file)
        sepia_raw_set_deadline(handle.raw, source.options.developTimeout)
        var options = sepia_raw_develop_options()
        let development = source.development
        options.half_size = half ? 1 : 0
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
            let m = source.cameraColor.multipliers(temperature: temperature, tint: tint)
            options.use_camera_wb = 0
            options.user_mul = (Float(m.x), Float(m.y), Float(m.z), Float(m.y))
        }
        options.noise_threshold = Float(development.noiseReduction * 1000)
        options.highlight = development.recoverHighlights ? 5 : 0
        let status = sepia_raw_develop(handle.raw, &options)
        guard status == 0 else { throw LibRawHandle.error(status, file: source.file, stage: "developing the sensor data") }
        if sepia_raw_data_errors(handle.raw) > 0 {
            if source.options.limits.strict {
                throw CodecError(.damagedData, format: .cameraRAW, "the RAW data is damaged in places", file: source.file)
            }
            source.decodeWarnings.add("the RAW data is damaged in places; LibRaw developed what it could read")
        }
        var width: Int32 = 0
        var height: Int32 = 0
        guard let pixels = sepia_raw_image(handle.raw, &width, &height), width > 0, height > 0 else {
            throw CodecError(.corruptData, format: .cameraRAW, "LibRaw developed no image", file: source.file)
        }
        developed = IntSize(width: Int(width), height: Int(height))
        image = pixels
        self.handle = handle
        let white = Self.whiteLevel(pixels, count: developed.width * developed.height)
        let automatic = 65536 / Double(max(white, 256))
        let gain = Float(pow(automatic, development.boost) * pow(2, development.exposure))
        let matrix = Matrix3(SIMD3(gain, 0, 0), SIMD3(0, gain, 0), SIMD3(0, 0, gain))
        color = SourceColor(name: "linear sRGB", curves: SourceColor.sRGB.curves, matrix: matrix)
    }

    var format: SourcePixelFormat { .rgba16LinearPremultiplied }
    var decodesIncrementally: Bool { true }

    /// dcraw's white level: for each channel, the value 1 % of the pixels exceed (in steps of 8); the highest.
    static func whiteLevel(_ pixels: UnsafePointer<UInt16>, count: Int) -> Int {
        var histogram = [Int](repeating: 0, count: 3 * 8192)
        histogram.withUnsafeMutableBufferPointer { h in
            guard let h = h.baseAddress else { return }
            for i in 0..<count {
                let p = pixels + 4 * i
                h[Int(p[0] >> 3)] += 1
                h[8192 + Int(p[1] >> 3)] += 1
                h[16384 + Int(p[2] >> 3)] += 1
            }
        }
        let percentile = Int(Double(count) * 0.01)
        var white = 32
        for c in 0..<3 {
            var total = 0
            var value = 0x2000
            while value > 32 {
                value -= 1
                total += histogram[c * 8192 + value]
                if total > percentile { break }
            }
            white = max(white, value)
        }
        return white << 3
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard handle != nil, let base = buffer.baseAddress else { return 0 }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
        guard rows > 0 else { return 0 }
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
        nextRow += rows
        if nextRow == size.height { handle = nil }
        return rows
    }
}
