/// An ``ImageSource`` over an 8-bit sRGB ``Bitmap`` in memory.
public struct BitmapSource: ImageSource {
    /// The pixels.
    public let bitmap: Bitmap

    /// Creates a source reading `bitmap`.
    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
    }

    /// The bitmap's size.
    public var pixelSize: IntSize { bitmap.size }
    /// Whether the bitmap's layout has alpha.
    public var hasAlpha: Bool { bitmap.layout.hasAlpha }
    /// Only full size.
    public var decodeScales: [Int] { [1] }

    /// A decoder copying rows out of the bitmap.
    public func makeDecoder(scale: Int) throws -> any RowDecoder {
        BitmapRowDecoder(bitmap: bitmap)
    }
}

private final class BitmapRowDecoder: RowDecoder {
    let bitmap: Bitmap
    private var nextRow = 0

    init(bitmap: Bitmap) {
        self.bitmap = bitmap
    }

    var size: IntSize { bitmap.size }
    var color: SourceColor { .sRGB }
    var decodesIncrementally: Bool { true }
    var format: SourcePixelFormat {
        switch bitmap.layout {
        case .gray: return .gray8
        case .grayAlpha: return .grayAlpha8
        case .rgb: return .rgb8
        case .rgba: return .rgba8
        }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
        let rows = min(buffer.count / bytesPerRow, bitmap.height - nextRow)
        guard rows > 0 else { return 0 }
        bitmap.bytes.withUnsafeBytes { src in
            let start = nextRow * bitmap.bytesPerRow
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[start..<(start + rows * bytesPerRow)]))
        }
        nextRow += rows
        return rows
    }
}
