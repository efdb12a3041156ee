import Foundation
import SepiaCodecs
import SepiaImage

/// Whether a video's sample table is one a real recording could have, checked when it is probed — before a
/// frame is decoded, before it is imported or uploaded, before a playable version is encoded.
///
/// A few bytes can declare hours of frames: a table that points every sample at the same bytes, or a still
/// picture's 14-byte skip frame repeated, decodes to as many pixels as a real recording of that length, and
/// costs as much to decode and encode. So the table is judged against the file (``VideoOptions``):
///
/// - no more frames a second than ``VideoOptions/maximumFrameRate``;
/// - no sample whose bytes are another's (beyond one in a hundred, for a damaged table's slips);
/// - no longer than ``VideoOptions/maximumDuration`` by the samples' own durations, whatever the headers declare;
/// - no more pixels of decoded frames (frames in the file × width × height) than
///   ``VideoOptions/maximumDecodedPixelsPerByte`` times the file's bytes, or ``VideoOptions/decodedPixelAllowance``.
///
/// Without a sample table (Matroska, AVI, transport streams), the declared duration and frame rate stand for
/// the frames; the encode checks the frames it really decodes against the same limits.
enum VideoPlausibility {
    static func check(_ layout: SampleLayout?, info: VideoInfo, options: VideoOptions, file: String?) throws(CodecError) {
        let format = info.format
        var frames: Double?
        if let layout {
            if layout.samples > 1, let duration = layout.duration {
                let rate = duration > 0 ? Double(layout.samples) / duration : .infinity
                if rate > options.maximumFrameRate {
                    throw CodecError(
                        .corruptData, format: format,
                        "the sample table puts \(count(layout.samples)) frames in \(VideoProbe.clock(duration, decimals: 3)), "
                            + "\(rate.isFinite ? count(Int(rate)) : "countless") frames a second, more than the \(count(Int(options.maximumFrameRate))) "
                            + "any camera records: the file is damaged or made to look longer than it is",
                        file: file)
                }
            }
            if layout.shared > layout.samples / 100 {
                throw CodecError(
                    .corruptData, format: format,
                    "the sample table points \(count(layout.shared)) of the video's \(count(layout.samples)) samples at bytes another sample "
                        + "uses, where a real recording stores each frame once: the file is damaged or made to decode to far more than it holds",
                    file: file)
            }
            if let duration = layout.duration, duration > options.maximumDuration {
                throw CodecError(
                    .limitExceeded, format: format,
                    "the video's samples last \(VideoProbe.clock(duration)), longer than the limit of \(VideoProbe.clock(options.maximumDuration))"
                        + (info.duration.map { " (its headers declare \(VideoProbe.clock($0)))" } ?? ""),
                    file: file)
            }
            frames = Double(layout.inFile)
        } else if let duration = info.duration, let rate = info.video.frameRate {
            frames = duration * rate
        }
        let size = info.video.codedSize
        if let frames {
            let pixels = frames * Double(size.width) * Double(size.height)
            let limit = options.decodedPixelLimit(forFileOf: info.byteCount)
            if pixels > Double(limit) {
                throw CodecError(
                    .limitExceeded, format: format,
                    "the video would decode to \(gigapixels(pixels)) gigapixels (\(count(Int(frames))) frames of \(size.width)x\(size.height)) "
                        + "from \(megabytes(info.byteCount)) MB, more than \(count(options.maximumDecodedPixelsPerByte)) pixels per byte of the file "
                        + "(a camera's recording has a few hundred): its frames are a still picture repeated, or its sample table declares "
                        + "more than its bytes hold",
                    file: file)
            }
        }
    }

    /// `399 000`: a count with spaces between thousands, as people read it.
    static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var grouped = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { grouped += " " }
            grouped.append(digit)
        }
        return (n < 0 ? "-" : "") + grouped
    }

    static func gigapixels(_ pixels: Double) -> String { String(format: pixels >= 1e10 ? "%.0f" : "%.1f", pixels / 1e9) }

    static func megabytes(_ bytes: Int) -> String { String(format: bytes >= 10_000_000 ? "%.0f" : "%.1f", Double(bytes) / 1e6) }
}
