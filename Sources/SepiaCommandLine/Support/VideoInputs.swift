import Foundation
import SepiaCodecs
import SepiaImage
import SepiaVideo

/// Opens videos for the image commands: the poster frame as the image, and what `info` says about a video.
enum VideoInputs {
    @Sendable
    static func open(path: String, options: DecodeOptions) throws -> OpenedInput {
        let video = try VideoSource(path: path, options: VideoOptions(frameLimitsOf: options))
        return OpenedInput(file: video, details: lines(video), json: EncodableValue(VideoReport(video)))
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
    static func lines(_ video: VideoSource) -> [ReportLine] {
        let info = video.info
        let v = info.video
        var lines: [ReportLine] = []
        if let duration = info.duration { lines.append(ReportLine("duration", VideoProbe.clock(duration, decimals: 2))) }
        var stream = [[v.codecName, v.profile].compactMap { $0 }.joined(separator: " ")]
        if let depth = v.bitDepth { stream.append("\(depth)-bit") }
        stream.append("\(v.codedSize.width)x\(v.codedSize.height)")
        if let sar = v.sampleAspectRatio { stream.append("pixels \(sar)") }
        if v.rotation != 0 { stream.append("rotated \(v.rotation)°" + (v.mirrored ? ", mirrored" : "")) }
        if let fps = v.frameRate { stream.append(String(format: "%.3g fps", fps)) }
        stream.append(v.dynamicRange.description)
        if let rate = v.bitRate ?? info.bitRate { stream.append(String(format: "%.1f Mbit/s", Double(rate) / 1e6)) }
        lines.append(ReportLine("video", stream.joined(separator: ", ")))
        for a in info.audio {
            var audio = [a.codecName]
            if let layout = a.channelLayout ?? a.channels.map({ "\($0) channels" }) { audio.append(layout) }
            if let rate = a.sampleRate { audio.append(String(format: "%g kHz", Double(rate) / 1000)) }
            if let language = a.language { audio.append(language) }
            lines.append(ReportLine("audio", audio.joined(separator: ", ")))
        }
        if let id = info.metadata.contentIdentifier {
            lines.append(
                ReportLine("live photo", id + (info.metadata.stillImageTime.map { String(format: ", still image at %.2f s", $0) } ?? "")))
        }
        lines.append(ReportLine("poster", String(format: "%.2f s", video.posterTime)))
        return lines
    }
}
