import Foundation
public import SepiaCodecs
import SepiaImage

/// Videos as a ``MediaOpener``: MP4, MOV, M4V, 3GP, MKV, WebM, AVI and MPEG-TS files, read where they are (never
/// whole into memory) and opened as a ``VideoSource``, whose probe is read once and answers everything asked of
/// the video afterwards: its size, length, frame rate, metadata, whether it plays in browsers as it is, and its
/// poster frame as the picture.
public struct VideoOpener: MediaOpener {
    /// The limits videos are opened with.
    public let options: VideoOptions

    /// An opener with these limits.
    public init(options: VideoOptions = VideoOptions()) {
        self.options = options
    }

    /// ``MediaKind/video``.
    public var kind: MediaKind { .video }
    /// Videos are read where they are.
    public var readsInPlace: Bool { true }
    /// ``VideoOptions/maximumFileBytes``.
    public var maximumFileBytes: Int { options.maximumFileBytes }
    /// The formats, in words.
    public var formatsDescription: String { "MP4, MOV, M4V, 3GP, MKV, WebM, AVI and MTS videos" }

    /// Whether the file is in a video container.
    public func claims(_ file: MediaFile) -> Bool {
        file.format?.isVideo == true
    }

    /// Probes the file where it is; its container, sniffed already, is not sniffed again.
    public func open(_ file: MediaFile) throws(CodecError) -> OpenedMedia {
        guard let format = file.format, format.isVideo else {
            throw CodecError(.unsupportedFormat, format: file.format, "this is not a video container", file: file.path)
        }
        return Self.opened(try VideoSource(path: file.path, format: format, options: options))
    }

    /// Probes a video in memory.
    public func open(_ bytes: EncodedBytes, format: ImageFormat, fileName: String?) throws(CodecError) -> OpenedMedia {
        do {
            return Self.opened(try VideoSource(bytes: bytes, options: options), bytes: bytes)
        } catch {
            guard let fileName else { throw error }
            throw error.file == nil ? error.inFile(fileName) : error
        }
    }

    /// What the opened video answers: its probe's size, length, rate and metadata (its Live Photo content
    /// identifier among them), how it plays, and what `sepia info` says of it.
    static func opened(_ video: VideoSource, bytes: EncodedBytes? = nil) -> OpenedMedia {
        let info = video.info
        var metadata = video.metadata
        metadata.contentIdentifier = info.metadata.contentIdentifier
        return OpenedMedia(
            kind: .video, still: video, byteCount: info.byteCount, bytes: bytes, duration: info.duration ?? 0, frameRate: info.video.frameRate,
            metadata: metadata, playback: PlayableVideo.needsPlayableVersion(info) ? .needsPlayableVersion : .asIs,
            decodedPixels: PlayableVideo.decodedPixels(info), facts: facts(video),
            report: VideoReport(video))
    }

    /// What `info --json` adds under `video`: the probe, and the poster's chosen time.
    struct VideoReport: Encodable, Sendable {
        let info: VideoInfo
        let posterTime: Double

        init(_ video: VideoSource) {
            info = video.info
            posterTime = video.posterTime
        }

        func encode(to encoder: any Encoder) throws {
            try info.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(posterTime, forKey: .posterTime)
        }

        enum Keys: String, CodingKey {
            case posterTime
        }
    }

    /// The lines `info` prints for a video, after the image's.
    static func facts(_ video: VideoSource) -> [(label: String, value: String)] {
        let info = video.info
        let v = info.video
        var lines: [(label: String, value: String)] = []
        if let duration = info.duration { lines.append(("duration", VideoProbe.clock(duration, decimals: 2))) }
        var stream = [[v.codecName, v.profile].compactMap { $0 }.joined(separator: " ")]
        if let depth = v.bitDepth { stream.append("\(depth)-bit") }
        stream.append("\(v.codedSize.width)x\(v.codedSize.height)")
        if let sar = v.sampleAspectRatio { stream.append("pixels \(sar)") }
        if v.rotation != 0 { stream.append("rotated \(v.rotation)°" + (v.mirrored ? ", mirrored" : "")) }
        if let fps = v.frameRate { stream.append(String(format: "%.3g fps", fps)) }
        stream.append(v.dynamicRange.description)
        if let rate = v.bitRate ?? info.bitRate { stream.append(String(format: "%.1f Mbit/s", Double(rate) / 1e6)) }
        lines.append(("video", stream.joined(separator: ", ")))
        for a in info.audio {
            var audio = [a.codecName]
            if let layout = a.channelLayout ?? a.channels.map({ "\($0) channels" }) { audio.append(layout) }
            if let rate = a.sampleRate { audio.append(String(format: "%g kHz", Double(rate) / 1000)) }
            if let language = a.language { audio.append(language) }
            lines.append(("audio", audio.joined(separator: ", ")))
        }
        if let id = info.metadata.contentIdentifier {
            lines.append(("live photo", id + (info.metadata.stillImageTime.map { String(format: ", still image at %.2f s", $0) } ?? "")))
        }
        lines.append(("poster", String(format: "%.2f s", video.posterTime)))
        return lines
    }
}
