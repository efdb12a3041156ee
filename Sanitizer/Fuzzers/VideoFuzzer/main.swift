import FuzzerDriver
import SepiaCodecs
import SepiaImage
import SepiaVideo

/// Feeds arbitrary bytes through SepiaVideo: sniffing, the demuxer FFmpeg's bytes call for (MP4/MOV, Matroska,
/// AVI, MPEG-TS) behind the bounded reader, the probe's own readers (codec configuration records, QuickTime
/// metadata, ISO 6709, the Live Photo boxes), and, when the last byte says so, a poster decode at a small size
/// (decoder, swscale, tone mapping). The limits keep each input small and quick.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = EncodedBytes(UnsafeBufferPointer(start: data, count: size))
    let options = VideoOptions(
        maximumFileBytes: 1 << 20, maximumFramePixels: 640 * 480, maximumDimension: 2048, maximumStreams: 8, probeBytes: 256 << 10,
        analyzeDuration: 1, timeLimit: 2)
    guard let info = try? VideoProbe.probe(bytes, options: options) else { return 0 }
    _ = info.video.displaySize
    let decode = size > 0 && data[size - 1] & 1 == 1
    if decode, let video = try? VideoSource(bytes: bytes, options: options) {
        _ = video.details
        _ = try? video.frame(size: IntSize(width: 32, height: 24))
    }
    return 0
}

runFuzzer(fuzz)
