internal import CFFmpeg
import Foundation
import SepiaCodecs
import SepiaImage

/// The probe of MP4, MOV and 3GP files from their `moov` box alone (``MovieHeaders``), giving the
/// ``VideoInfo`` FFmpeg's demuxer would give, without loading FFmpeg. Answers nil for anything it does not
/// describe fully, and ``VideoProbe`` asks FFmpeg instead; throws, as FFmpeg's path does, for a file over a limit.
enum MovieProbe {
    /// The largest `moov` read whole (a 3-hour 4K movie's is a few MB).
    static let maximumMovieBoxBytes = 32 << 20

    /// The description of the video at `location`, its video stream's start time in seconds, and where that
    /// stream's samples are (nil when its tables are not ones ``MovieSampleIndex`` places).
    static func probe(
        _ location: MediaLocation, options: VideoOptions, format known: ImageFormat? = nil
    ) throws(CodecError) -> (info: VideoInfo, startTime: Double, samples: MovieSampleIndex?)? {
        let reader = try ByteReader(location)
        let format = try MediaInput.check(
            size: reader.size, head: reader.read(at: 0, count: min(reader.size, 512)) ?? [], options: options, file: reader.file, known: known)
        guard [.quickTime, .mp4, .threeGPP].contains(format) else { return nil }
        let top = QuickTimeBoxes.topLevel(size: reader.size) { reader.read(at: $0, count: $1) }
        // A movie cut before its headers (written last, as cameras and ffmpeg do): the file is incomplete, and
        // nothing in it says what it holds.
        if let truncation = top.truncation, truncation.hasPrefix("the file is truncated"),
            !top.boxes.contains(where: { $0.type == "moov" || $0.type == "moof" })
        {
            throw CodecError(
                .truncatedData, format: format,
                "the file is incomplete, as a copy or an upload cut off leaves it: it ends before its headers (no moov box); \(truncation)",
                file: reader.file)
        }
        guard let moovBox = top.boxes.first(where: { $0.type == "moov" }), moovBox.end - moovBox.start <= maximumMovieBoxBytes,
            top.boxes.first(where: { $0.type == "moof" }) == nil,
            let moov = reader.read(at: moovBox.start, count: moovBox.end - moovBox.start),
            let movie = MovieHeaders.parse(moov: moov)
        else { return nil }
        var brand: String?
        if let ftyp = top.boxes.first(where: { $0.type == "ftyp" }), ftyp.end - ftyp.start >= 4, let bytes = reader.read(at: ftyp.start, count: 4) {
            brand = String(decoding: bytes, as: UTF8.self)
        }
        guard
            let (info, start) = try describe(
                movie, moov: moov, format: format, brand: brand, byteCount: reader.size, warnings: top.truncation.map { [$0] } ?? [],
                options: options, file: reader.file)
        else { return nil }
        let samples = MovieSampleIndex(moov: moov, track: movie.tracks[info.video.index], movieTimescale: movie.timescale)
        return (info, start, samples)
    }

    static func describe(
        _ movie: MovieHeaders, moov: [UInt8], format: ImageFormat, brand: String?, byteCount: Int, warnings: [String], options: VideoOptions,
        file: String?
    ) throws(CodecError) -> (info: VideoInfo, startTime: Double)? {
        if movie.tracks.count > options.maximumStreams {
            throw CodecError(
                .limitExceeded, format: format, "the file has \(movie.tracks.count) streams, more than the limit of \(options.maximumStreams)",
                file: file)
        }
        var best: (index: Int, pixels: Int)?
        for (i, track) in movie.tracks.enumerated() where track.handler == "vide" {
            let pixels = track.width * track.height
            if pixels > (best?.pixels ?? -1) { best = (i, pixels) }
        }
        guard let videoIndex = best?.index else { return nil }
        guard let video = try videoStream(movie.tracks[videoIndex], index: videoIndex, format: format, options: options, file: file) else {
            return nil
        }
        var audio: [AudioStreamInfo] = []
        for (i, track) in movie.tracks.enumerated() where track.handler == "soun" {
            guard let stream = audioStream(track, index: i) else { return nil }
            audio.append(stream)
        }
        var duration: Double?
        if movie.duration > 0 {
            duration = Double(rescale(movie.duration, from: UInt64(movie.timescale), to: 1_000_000)) / 1_000_000
        }
        if let duration, duration > options.maximumDuration {
            throw CodecError(
                .limitExceeded, format: format,
                "the video lasts \(VideoProbe.clock(duration)), longer than the limit of \(VideoProbe.clock(options.maximumDuration))",
                file: file)
        }
        var tags = movie.tags
        if let brand { tags.append(("major_brand", brand)) }
        if let created = timestamp(movie.creationTime) { tags.append(("creation_time", created)) }
        if let created = timestamp(movie.tracks[videoIndex].creationTime) { tags.append(("creation_time", created)) }
        var warnings = warnings
        var metadata = ContainerMetadata.read(tags, warnings: &warnings)
        if metadata.contentIdentifier != nil { metadata.stillImageTime = QuickTimeBoxes.stillImageTime(moov: moov) }
        let info = VideoInfo(
            format: format, majorBrand: brand, duration: duration, byteCount: byteCount, bitRate: nil, video: video, audio: audio,
            streamCount: movie.tracks.count, metadata: metadata, warnings: warnings)
        return (info, 0)
    }

    // MARK: - Streams

    /// A sample entry's codec: FFmpeg's short name and identifier, for the codecs whose description is all in
    /// the headers.
    static func videoCodec(_ track: MovieHeaders.Track) -> (name: String, id: AVCodecID)? {
        switch track.sampleEntry {
        case "avc1", "avc3": return ("h264", AV_CODEC_ID_H264)
        case "hvc1", "hev1": return ("hevc", AV_CODEC_ID_HEVC)
        case "av01": return ("av1", AV_CODEC_ID_AV1)
        case "vp09": return ("vp9", AV_CODEC_ID_VP9)
        // MPEG-4 Part 2, H.263 and Motion JPEG say their profile, depth and pixel shape only in the stream,
        // which FFmpeg parses.
        default: return nil
        }
    }

    private static func videoStream(
        _ track: MovieHeaders.Track, index: Int, format: ImageFormat, options: VideoOptions, file: String?
    ) throws(CodecError) -> VideoStreamInfo? {
        guard let (short, id) = videoCodec(track), let known = VideoCodecs.codec(id), track.width > 0, track.height > 0 else { return nil }
        try options.checkFrameSize(width: track.width, height: track.height, format: format, file: file)
        var profile: String?
        var depth: Int?
        if id == AV_CODEC_ID_VP9 {
            // vpcC: version and flags, then profile, level, and bit depth in the high nibble.
            guard track.configuration.count >= 7 else { return nil }
            profile = "Profile \(track.configuration[4])"
            depth = Int(track.configuration[6] >> 4)
        } else if let config = CodecConfiguration.parse(track.configuration, codec: id) {
            profile = config.profile.flatMap { profileName(id, $0) }
            if config.profile != nil && profile == nil { return nil }
            depth = config.bitDepth
        }
        var sar: AspectRatio?
        if let (h, v) = track.pixelAspect, h > 0, v > 0, h != v {
            let divisor = gcd(h, v)
            if let ratio = AspectRatio(h / divisor, v / divisor), (0.1...10).contains(ratio.value) { sar = ratio }
        }
        // The display matrix: a turn by a multiple of 90°, not mirrored (FFmpeg reads anything else).
        let (a, b, c, d) = track.matrix
        guard Int64(a) * Int64(d) - Int64(b) * Int64(c) > 0 else { return nil }
        let degrees = atan2(Double(b), Double(a)) * 180 / .pi
        let quarter = (degrees / 90).rounded()
        guard abs(degrees - quarter * 90) < 0.01 else { return nil }
        let rotation = ((Int(quarter) * 90) % 360 + 360) % 360
        let orientation = StreamInspector.orientation(rotation: rotation, mirrored: false)
        let square = StreamInspector.squarePixelSize(width: track.width, height: track.height, sar: sar)

        var transfer: String?, primaries: String?, matrix: String?, fullRange: Bool?
        var range = DynamicRange.sdr
        if let colour = track.colour {
            guard let t = name(colour.transfer, transferNames), let p = name(colour.primaries, primariesNames),
                let m = name(colour.matrix, matrixNames)
            else { return nil }
            (transfer, primaries, matrix, fullRange) = (t, p, m, colour.fullRange)
            range = colour.transfer == 18 ? .hlg : colour.transfer == 16 ? .pq : .sdr
        } else if depth != 8 && [AV_CODEC_ID_HEVC, AV_CODEC_ID_AV1, AV_CODEC_ID_VP9].contains(id) {
            return nil  // may be HDR, which only the stream's first frame says: FFmpeg reads it
        }
        var frameRate: Double?
        if track.sampleCount > 0, track.sampleDuration > 0, track.timescale > 0 {
            let rate = Double(track.sampleCount) * Double(track.timescale) / Double(track.sampleDuration)
            if rate > 0 && rate < 10_000 { frameRate = rate }
        }
        return VideoStreamInfo(
            index: index, codec: short, codecName: known.name, profile: profile, bitDepth: depth, pixelFormat: nil,
            codedSize: IntSize(width: track.width, height: track.height), sampleAspectRatio: sar, squarePixelSize: square, rotation: rotation,
            mirrored: false, orientation: orientation, displaySize: orientation.displaySize(forStored: square), frameRate: frameRate,
            frameCount: track.sampleCount > 0 ? track.sampleCount : nil, dynamicRange: range, transfer: transfer, primaries: primaries,
            matrix: matrix, fullRange: fullRange, masteringPeakLuminance: track.masteringPeak.flatMap { $0 > 0 ? $0 : nil },
            maxContentLightLevel: track.maxContentLight.flatMap { $0 > 0 ? $0 : nil }, bitRate: bitRate(track))
    }

    private static func audioStream(_ track: MovieHeaders.Track, index: Int) -> AudioStreamInfo? {
        let short: String
        switch track.sampleEntry {
        case "mp4a" where [0x40, 0x66, 0x67, 0x68].contains(track.objectType): short = "aac"
        case "mp4a" where [0x69, 0x6B].contains(track.objectType): short = "mp3"
        case "ac-3": short = "ac3"
        case "ec-3": short = "eac3"
        case "Opus": short = "opus"
        case "alac": short = "alac"
        case "samr": short = "amr_nb"
        case "sawb": short = "amr_wb"
        default: return nil
        }
        let layouts = [1: "mono", 2: "stereo"]
        guard let layout = layouts[track.channels], let codecName = VideoCodecs.audioNames[short] else { return nil }
        return AudioStreamInfo(
            index: index, codec: short, codecName: codecName, channels: track.channels, channelLayout: layout,
            sampleRate: track.sampleRate > 0 ? track.sampleRate : nil, bitRate: bitRate(track), language: track.language)
    }

    /// As FFmpeg's `mov` demuxer computes a stream's bit rate: its samples' bytes over its duration.
    private static func bitRate(_ track: MovieHeaders.Track) -> Int? {
        guard track.duration > 0, track.sampleBytes > 0 else { return nil }
        // A damaged sample table can claim any number of bytes: both products are checked.
        let (bits, bitsOverflow) = track.sampleBytes.multipliedReportingOverflow(by: 8)
        let (product, overflow) = bits.multipliedReportingOverflow(by: UInt64(track.timescale))
        guard !bitsOverflow, !overflow else { return nil }
        let rate = product / track.duration
        return rate > 0 && rate < UInt64(Int.max) ? Int(rate) : nil
    }

    // MARK: - Names, as FFmpeg gives them

    /// `avcodec_profile_name`'s names of the profiles cameras use.
    static func profileName(_ codec: AVCodecID, _ profile: Int32) -> String? {
        switch codec {
        case AV_CODEC_ID_H264:
            let names: [Int32: String] = [
                66: "Baseline", 66 | (1 << 9): "Constrained Baseline", 77: "Main", 88: "Extended", 100: "High", 110: "High 10",
                122: "High 4:2:2", 144: "High 4:4:4", 244: "High 4:4:4 Predictive", 44: "CAVLC 4:4:4", 118: "Multiview High", 128: "Stereo High",
            ]
            return names[profile]
        case AV_CODEC_ID_HEVC: return [1: "Main", 2: "Main 10", 3: "Main Still Picture", 4: "Rext"][profile]
        case AV_CODEC_ID_AV1: return [0: "Main", 1: "High", 2: "Professional"][profile]
        default: return nil
        }
    }

    /// ISO/IEC 23091-2 code points (H.273) and FFmpeg's names; 2 is unspecified.
    static let transferNames: [Int: String] = [
        1: "bt709", 4: "bt470m", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 8: "linear", 11: "iec61966-2-4", 13: "iec61966-2-1",
        14: "bt2020-10", 15: "bt2020-12", 16: "smpte2084", 18: "arib-std-b67",
    ]
    static let primariesNames: [Int: String] = [
        1: "bt709", 4: "bt470m", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 8: "film", 9: "bt2020", 11: "smpte431", 12: "smpte432",
    ]
    static let matrixNames: [Int: String] = [
        0: "gbr", 1: "bt709", 4: "fcc", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 9: "bt2020nc", 10: "bt2020c",
    ]

    /// The name of a code point; "" (read as nil) for unspecified, nil for one not in the table.
    private static func name(_ code: Int, _ table: [Int: String]) -> String?? {
        if code == 2 { return .some(nil) }
        guard let name = table[code] else { return nil }
        return .some(name)
    }

    // MARK: - Helpers

    /// `a × to / from`, rounded to the nearest, as `av_rescale`.
    private static func rescale(_ a: UInt64, from: UInt64, to: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: to)
        guard from > 0, high < from else { return .max }  // beyond 64 bits: longer than any limit
        let (quotient, remainder) = from.dividingFullWidth((high, low))
        return remainder >= from - remainder ? quotient &+ 1 : quotient
    }

    /// A QuickTime time (seconds since 1904) as FFmpeg writes `creation_time`; nil for 0.
    private static func timestamp(_ seconds1904: UInt64) -> String? {
        guard seconds1904 > 2_082_844_800, seconds1904 < 2_082_844_800 + 10_000_000_000 else { return nil }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds1904 - 2_082_844_800))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000000Z", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// Reads a file (or bytes in memory) at offsets, without FFmpeg.
final class ByteReader {
    let size: Int
    let file: String?
    private let fd: Int32
    private let memory: EncodedBytes?

    init(_ location: MediaLocation) throws(CodecError) {
        switch location {
        case .file(let path):
            file = path
            memory = nil
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { throw CodecError(.fileSystem, "cannot open the file: \(String(cString: strerror(errno)))", file: path) }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                let directory = (status.st_mode & S_IFMT) == S_IFDIR
                close(fd)
                throw CodecError(.fileSystem, directory ? "is a folder, not a file" : "is not a regular file", file: path)
            }
            size = Int(status.st_size)
        case .memory(let bytes):
            file = nil
            memory = bytes
            fd = -1
            size = bytes.count
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// `count` bytes at `offset`; nil when they are not all there or cannot be read.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        if let memory { return memory.withUnsafeBytes { Array($0[offset..<(offset + count)]) } }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done)) }
            guard n > 0 else { return nil }
            done += n
        }
        return buffer
    }
}
