import Foundation
import SepiaCodecs
import SepiaImage
import Testing

/// A JPEG encode that stops part-way (its render failed or was cancelled: the client left) must free what it
/// had written, once. libjpeg's memory destination moves its output to a larger buffer as it grows and hands
/// the final one back only at the end, so an encoder torn down before its end must not trust its first buffer.
@Suite struct StoppedEncodeTests {
    struct SourceFailed: Error {}

    /// Noise rows (which JPEG cannot shrink, so the output outgrows any first buffer quickly), failing at `failAt`.
    final class NoiseThenFailure: RowDecoder {
        let size: IntSize
        let format = SourcePixelFormat.rgb8
        let color = SourceColor.sRGB
        let decodesIncrementally = true
        let failAt: Int
        var row = 0
        var state: UInt32 = 0x9E37_79B9

        init(size: IntSize, failAt: Int) {
            self.size = size
            self.failAt = failAt
        }

        func readRows(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws -> Int {
            if row >= failAt { throw SourceFailed() }
            let count = min(buffer.count / bytesPerRow, failAt - row)
            for index in 0..<(count * bytesPerRow) {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                buffer[index] = UInt8(truncatingIfNeeded: state)
            }
            row += count
            return count
        }
    }

    struct Source: ImageSource {
        let pixelSize: IntSize
        let failAt: Int
        var hasAlpha: Bool { false }
        var decodeScales: [Int] { [1] }
        func makeDecoder(scale: Int) throws -> any RowDecoder { NoiseThenFailure(size: pixelSize, failAt: failAt) }
    }

    @Test("a JPEG encode whose render fails after its output outgrew the first buffer ends with the render's error")
    func failedPartWay() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 16))
        for failAt in [8, 64, 300] {
            let image = Image(source: Source(pixelSize: IntSize(width: 640, height: 480), failAt: failAt))
            await #expect(throws: SourceFailed.self) {
                _ = try await ImageEncoding.encode(image, as: .jpeg, context: context)
            }
            #expect(throws: SourceFailed.self) {
                _ = try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context)
            }
        }
    }

    @Test("a JPEG encode cancelled while it renders ends with the cancellation, however far it had got")
    func cancelledPartWay() async throws {
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileHeight: 16))
        let image = Image(source: Source(pixelSize: IntSize(width: 4000, height: 3000), failAt: 3000))
        for delay in [0, 2, 5, 10, 20, 40] {
            let encode = Task { try await ImageEncoding.encode(image, as: .jpeg, context: context) }
            try await Task.sleep(for: .milliseconds(delay))
            encode.cancel()
            do {
                let bytes = try await encode.value
                #expect(bytes.starts(with: [0xFF, 0xD8]), "an encode that finished before its cancellation is whole")
            } catch {
                #expect(error is CancellationError || (error as? RenderError) == .cancelled, "\(error)")
            }
        }
    }
}
