internal import CFFmpeg

/// The video codecs Sepia decodes: those cameras and phones record. Anything else is reported by a probe but
/// refused for posters, so FFmpeg's many other decoders (each an attack surface) are never reached.
enum VideoCodecs {
    struct Codec: Sendable {
        /// FFmpeg's codec identifier, as its raw value.
        let id: UInt32
        /// The decoders to use, preferred first (AV1: dav1d, else libaom).
        let decoderNames: [String]
        /// The name for people.
        let name: String

        var decoderName: String { decoderNames.joined(separator: ",") }
    }

    static let decodable: [Codec] = [
        Codec(id: AV_CODEC_ID_H264.rawValue, decoderNames: ["h264"], name: "H.264"),
        Codec(id: AV_CODEC_ID_HEVC.rawValue, decoderNames: ["hevc"], name: "HEVC"),
        Codec(id: AV_CODEC_ID_AV1.rawValue, decoderNames: ["libdav1d", "libaom-av1"], name: "AV1"),
        Codec(id: AV_CODEC_ID_VP8.rawValue, decoderNames: ["vp8"], name: "VP8"),
        Codec(id: AV_CODEC_ID_VP9.rawValue, decoderNames: ["vp9"], name: "VP9"),
        Codec(id: AV_CODEC_ID_MPEG4.rawValue, decoderNames: ["mpeg4"], name: "MPEG-4 Part 2"),
        Codec(id: AV_CODEC_ID_H263.rawValue, decoderNames: ["h263"], name: "H.263"),
        Codec(id: AV_CODEC_ID_MPEG2VIDEO.rawValue, decoderNames: ["mpeg2video"], name: "MPEG-2"),
        Codec(id: AV_CODEC_ID_MPEG1VIDEO.rawValue, decoderNames: ["mpeg1video"], name: "MPEG-1"),
        Codec(id: AV_CODEC_ID_MJPEG.rawValue, decoderNames: ["mjpeg"], name: "Motion JPEG"),
        Codec(id: AV_CODEC_ID_DVVIDEO.rawValue, decoderNames: ["dvvideo"], name: "DV"),
        Codec(id: AV_CODEC_ID_PRORES.rawValue, decoderNames: ["prores"], name: "ProRes"),
    ]

    /// FFmpeg's short names of the codecs in ``decodable``, known without asking FFmpeg.
    static let decodableShortNames: Set<String> = [
        "h264", "hevc", "av1", "vp8", "vp9", "mpeg4", "h263", "mpeg2video", "mpeg1video", "mjpeg", "dvvideo", "prores",
    ]

    /// Whether Sepia decodes the codec FFmpeg calls `shortName`.
    static func isDecodable(shortName: String) -> Bool {
        decodableShortNames.contains(shortName)
    }

    /// The entry for a codec, if Sepia decodes it.
    static func codec(_ id: AVCodecID) -> Codec? {
        decodable.first { $0.id == id.rawValue }
    }

    /// FFmpeg's short name of a codec (`h264`).
    static func shortName(_ id: AVCodecID) -> String {
        avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
    }

    /// Short names of the audio codecs cameras record.
    static let audioNames: [String: String] = [
        "aac": "AAC", "mp3": "MP3", "mp2": "MP2", "ac3": "AC-3", "eac3": "E-AC-3", "opus": "Opus", "vorbis": "Vorbis", "flac": "FLAC",
        "alac": "ALAC", "amr_nb": "AMR-NB", "amr_wb": "AMR-WB", "pcm_s16le": "PCM 16-bit", "pcm_s16be": "PCM 16-bit", "pcm_s24le": "PCM 24-bit",
        "pcm_s24be": "PCM 24-bit", "pcm_s32le": "PCM 32-bit", "pcm_f32le": "PCM float", "pcm_u8": "PCM 8-bit", "pcm_alaw": "A-law",
        "pcm_mulaw": "µ-law", "pcm_dvd": "PCM (DVD)", "pcm_bluray": "PCM (Blu-ray)",
    ]

    /// The codec's name for people: ours, else FFmpeg's long name.
    static func displayName(_ id: AVCodecID) -> String {
        if let known = codec(id) { return known.name }
        if let audio = audioNames[shortName(id)] { return audio }
        if let descriptor = avcodec_descriptor_get(id), let long = descriptor.pointee.long_name { return String(cString: long) }
        return shortName(id)
    }

    /// The decoder to open for a codec: the first of its decoders this FFmpeg build has.
    static func decoder(for id: AVCodecID) -> UnsafePointer<AVCodec>? {
        guard let known = codec(id) else { return nil }
        for name in known.decoderNames {
            if let decoder = avcodec_find_decoder_by_name(name) { return decoder }
        }
        return nil
    }
}

/// What a codec's configuration record (MP4's `avcC`, `hvcC`, `av1C`; the same bytes as Matroska's
/// CodecPrivate) says about the stream, read without a decoder: the profile and the bit depth.
struct CodecConfiguration: Equatable {
    var profile: Int32?
    var bitDepth: Int?
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    var chromaFormat: Int?

    /// Parses the record of `codec`; nil when it is absent, not a configuration record (Annex B start codes in
    /// a transport stream) or too short.
    static func parse(_ bytes: [UInt8], codec: AVCodecID) -> CodecConfiguration? {
        switch codec {
        case AV_CODEC_ID_H264: return avc(bytes)
        case AV_CODEC_ID_HEVC: return hevc(bytes)
        case AV_CODEC_ID_AV1: return av1(bytes)
        default: return nil
        }
    }

    /// `AVCDecoderConfigurationRecord` (ISO/IEC 14496-15 §5.3.3.1): version 1, then profile_idc; the high
    /// profiles append chroma_format and the bit depths after the parameter sets.
    static func avc(_ d: [UInt8]) -> CodecConfiguration? {
        guard d.count >= 7, d[0] == 1 else { return nil }
        var result = CodecConfiguration(profile: Int32(d[1]), bitDepth: nil, chromaFormat: nil)
        let constrainedBaseline = d[1] == 66 && d[2] & 0x40 != 0
        if constrainedBaseline { result.profile = 66 | (1 << 9) }
        var i = 6
        let spsCount = Int(d[5] & 0x1F)
        for _ in 0..<spsCount {
            guard i + 2 <= d.count else { return result }
            i += 2 + (Int(d[i]) << 8 | Int(d[i + 1]))
        }
        guard i < d.count else { return result }
        let ppsCount = Int(d[i])
        i += 1
        for _ in 0..<ppsCount {
            guard i + 2 <= d.count else { return result }
            i += 2 + (Int(d[i]) << 8 | Int(d[i + 1]))
        }
        if [100, 110, 122, 144].contains(d[1]), i + 4 <= d.count, d[i] & 0xFC == 0xFC {
            result.chromaFormat = Int(d[i] & 3)
            result.bitDepth = Int(d[i + 1] & 7) + 8
        } else if ![100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(d[1]) {
            // Baseline, Main and Extended are 8-bit 4:2:0 by definition.
            result.chromaFormat = 1
            result.bitDepth = 8
        }
        return result
    }

    /// `HEVCDecoderConfigurationRecord` (ISO/IEC 14496-15 §8.3.3.1): profile in byte 1, chroma format in
    /// byte 16, luma bit depth in byte 17.
    static func hevc(_ d: [UInt8]) -> CodecConfiguration? {
        guard d.count >= 23, d[0] == 1 else { return nil }
        return CodecConfiguration(profile: Int32(d[1] & 0x1F), bitDepth: Int(d[17] & 7) + 8, chromaFormat: Int(d[16] & 3))
    }

    /// `AV1CodecConfigurationRecord` (AV1 in ISOBMFF §2.3): marker and version, seq_profile, then the
    /// high_bitdepth, twelve_bit, monochrome and subsampling flags.
    static func av1(_ d: [UInt8]) -> CodecConfiguration? {
        guard d.count >= 4, d[0] == 0x81 else { return nil }
        let high = d[2] & 0x40 != 0
        let twelve = d[2] & 0x20 != 0
        let mono = d[2] & 0x10 != 0
        let sx = d[2] & 0x08 != 0
        let sy = d[2] & 0x04 != 0
        let chroma = mono ? 0 : (sx && sy ? 1 : (sx ? 2 : 3))
        return CodecConfiguration(profile: Int32(d[1] >> 5), bitDepth: high ? (twelve ? 12 : 10) : 8, chromaFormat: chroma)
    }
}
