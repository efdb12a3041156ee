import SepiaImage

/// The common part of codecs that decode a whole frame at once (PNG, WebP, HEIF): when the engine asks for
/// every row in one call (it keeps whole frames of such sources), the codec decodes straight into the engine's
/// memory; otherwise into a frame of its own, handed out row by row.
class WholeFrameDecoder: RowDecoder {
    let size: IntSize
    let format: SourcePixelFormat
    let color: SourceColor
    /// The file being decoded, named in errors.
    let file: String?
    private var frame: [UInt8] = []
    private var decoded = false
    private var nextRow = 0

    init(size: IntSize, format: SourcePixelFormat, color: SourceColor, file: String?) {
        self.size = size
        self.format = format
        self.color = color
        self.file = file
    }

    var decodesIncrementally: Bool { false }

    /// Decodes every row into `base`, `bytesPerRow` apart. Subclasses override.
    func decodeFrame(into base: UnsafeMutableRawPointer, bytesPerRow: Int) throws(CodecError) {
        preconditionFailure("\(type(of: self)) must override decodeFrame(into:bytesPerRow:)")
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let frameBytes = size.height * bytesPerRow
        if !decoded && buffer.count >= frameBytes {
            do {
                try decodeFrame(into: base, bytesPerRow: bytesPerRow)
            } catch {
                throw error.naming(file)
            }
            decoded = true
            nextRow = size.height
            return size.height
        }
        if !decoded {
            var whole = [UInt8](repeating: 0, count: frameBytes)
            var failure: CodecError?
            whole.withUnsafeMutableBytes { raw in
                guard let b = raw.baseAddress else { return }
                do {
                    try decodeFrame(into: b, bytesPerRow: bytesPerRow)
                } catch let error as CodecError {
                    failure = error
                } catch {
                    failure = CodecError(.corruptData, "\(error)")
                }
            }
            if let failure { throw failure.naming(file) }
            frame = whole
            decoded = true
        }
        let rows = min(buffer.count / bytesPerRow, size.height - nextRow)
        guard rows > 0 else { return 0 }
        frame.withUnsafeBytes { src in
            let start = nextRow * bytesPerRow
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[start..<(start + rows * bytesPerRow)]))
        }
        nextRow += rows
        if nextRow == size.height { frame = [] }
        return rows
    }
}
