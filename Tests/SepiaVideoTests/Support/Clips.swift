import Foundation
import SepiaTestSupport
import Synchronization

/// Test clips, generated at test time by Debian's `ffmpeg` from its synthetic sources (`testsrc2`, `sine`,
/// `gradients` with a fixed seed): no third-party media is committed. A clip is made once and kept in a cache
/// folder under the name and a hash of the ffmpeg command that makes it, so runs after the first reuse it.
enum Clips {
    /// Why a clip could not be made.
    typealias Failure = TestVideos.Failure

    static let cache: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-video-clips")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    /// Where the tests write files derived from the clips (damaged copies): the cache, as they are the same on
    /// every run; written atomically, so concurrent runs agree.
    static var folder: URL { cache }
    private static let made = Mutex<[String: String]>([:])
    private static let making = Mutex<Void>(())

    /// The clip `name` (with its extension), made by `ffmpeg arguments… name` unless made already. Fails the
    /// test, saying what to install, when ffmpeg is missing.
    static func make(_ name: String, _ arguments: [String]) throws -> String {
        if let path = made.withLock({ $0[name] }) { return path }
        return try making.withLock { _ in
            if let path = made.withLock({ $0[name] }) { return path }
            // FNV-1a of the command: a changed recipe makes a new clip.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in (arguments + [name]).joined(separator: "\u{0}").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            let path = cache.appendingPathComponent(String(hash, radix: 16) + "-" + name).path
            if !FileManager.default.fileExists(atPath: path) {
                // Written beside, then renamed: another test process never sees half a clip.
                let partial = path + ".\(getpid()).part." + (name as NSString).pathExtension
                _ = try TestVideos.run(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [partial])
                guard rename(partial, path) == 0 else { throw Failure(description: "cannot rename \(partial): \(errno)") }
            }
            made.withLock { $0[name] = path }
            return path
        }
    }

    /// ffmpeg's own decode of the frame at `time` (seconds from the start) as packed RGB at `width`×`height`
    /// (after `filters`), with swscale set as SepiaVideo sets it.
    static func reference(
        _ clip: String, time: Double, filters: [String] = [], width: Int, height: Int, flags: String = "bicubic"
    )
        throws -> [UInt8]
    {
        // Half a frame early: ffmpeg's accurate seek keeps the first frame at or after the time asked for.
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-ss", String(format: "%.6f", max(0, time - 0.004)), "-i", clip]
        arguments += ["-frames:v", "1", "-sws_flags", "\(flags)+accurate_rnd+full_chroma_int"]
        if !filters.isEmpty { arguments += ["-vf", filters.joined(separator: ",")] }
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let data = try TestVideos.run(arguments)
        guard data.count == width * height * 3 else {
            throw Failure(description: "ffmpeg gave \(data.count) bytes, \(width)x\(height) RGB is \(width * height * 3)")
        }
        return [UInt8](data)
    }

    // MARK: - The clips

    static let pattern = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2"]
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"]
    static let bt709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
    static let x265Quiet = ["-x265-params", "log-level=error"]

    static func h264MP4() throws -> String {
        try make("h264.mp4", pattern + tone + ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + bt709 + ["-c:a", "aac", "-ac", "2", "-shortest"])
    }

    static func hevcMOV() throws -> String {
        try make("hevc.mov", pattern + ["-c:v", "libx265"] + x265Quiet + ["-pix_fmt", "yuv420p", "-tag:v", "hvc1"] + bt709)
    }

    /// 10-bit HEVC tagged BT.2020 HLG, as an iPhone records (4:2:0, Main 10); `chroma` "444" keeps full
    /// chroma, so a comparison of tone mapping is not one of chroma upsampling.
    static func hevcHLG(chroma: String = "420") throws -> String {
        try make(
            "hevc-hlg-\(chroma).mov",
            hdrPattern + ["-c:v", "libx265"] + x265Quiet + [
                "-pix_fmt", "yuv\(chroma)p10le", "-tag:v", "hvc1", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace",
                "bt2020nc",
            ])
    }

    /// 10-bit HEVC tagged BT.2020 PQ, with a MaxCLL of 1000 cd/m² (HDR10).
    static func hevcPQ(chroma: String = "420") throws -> String {
        try make(
            "hevc-pq-\(chroma).mp4",
            hdrPattern + [
                "-c:v", "libx265", "-x265-params", "log-level=error:hdr10=1:max-cll=1000,400", "-pix_fmt", "yuv\(chroma)p10le", "-tag:v", "hvc1",
                "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc",
            ])
    }

    /// A pattern whose 10-bit codes cover dark, mid and bright values (up to the code of 1000 cd/m² in PQ),
    /// smooth enough that chroma subsampling matters little.
    static let hdrPattern = [
        "-f", "lavfi", "-i",
        "gradients=size=320x240:rate=30:duration=2:c0=0x102040:c1=0xF0E0C0:c2=0x30C060:c3=0xC03070:nb_colors=4:speed=0.01:seed=1",
    ]

    static func av1MP4() throws -> String {
        try make("av1.mp4", pattern + ["-c:v", "libsvtav1", "-preset", "12", "-svtav1-params", "verbosity=0"] + bt709)
    }

    static func av1WebM() throws -> String {
        try make("av1.webm", pattern + tone + ["-c:v", "libsvtav1", "-preset", "12", "-svtav1-params", "verbosity=0", "-c:a", "libopus"] + bt709)
    }

    static func vp8WebM() throws -> String {
        try make("vp8.webm", pattern + tone + ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libvorbis"] + bt709)
    }

    static func vp9WebM() throws -> String {
        try make("vp9.webm", pattern + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"] + bt709)
    }

    static func vp9MKV() throws -> String {
        try make("vp9.mkv", pattern + tone + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "flac"] + bt709)
    }

    static func mpeg4MP4() throws -> String {
        try make("mpeg4.mp4", pattern + ["-c:v", "mpeg4", "-q:v", "3"] + bt709)
    }

    static func mpeg4AVI() throws -> String {
        try make("mpeg4.avi", pattern + tone + ["-c:v", "mpeg4", "-vtag", "XVID", "-q:v", "3", "-c:a", "pcm_s16le"] + bt709)
    }

    static func mjpegAVI() throws -> String {
        try make("mjpeg.avi", pattern + ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"])
    }

    static func h263ThreeGP() throws -> String {
        try make(
            "h263.3gp",
            ["-f", "lavfi", "-i", "testsrc2=size=176x144:rate=15:duration=2"] + tone
                + ["-c:v", "h263", "-q:v", "4", "-c:a", "aac", "-ac", "1", "-ar", "16000", "-shortest"])
    }

    static func h264TS() throws -> String {
        try make("h264.ts", pattern + tone + ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + bt709 + ["-c:a", "aac", "-shortest", "-f", "mpegts"])
    }

    /// An AVCHD-like M2TS: 192-byte packets, H.264 at 4:3 sample aspect ratio (240×180 stored, 320×180 shown).
    static func anamorphicMTS() throws -> String {
        try make(
            "anamorphic.mts",
            ["-f", "lavfi", "-i", "testsrc2=size=240x180:rate=25:duration=2"] + tone
                + ["-vf", "setsar=4/3", "-c:v", "libx264", "-pix_fmt", "yuv420p"] + bt709
                + ["-c:a", "ac3", "-shortest", "-f", "mpegts", "-mpegts_m2ts_mode", "1"])
    }

    static func mpeg2TS() throws -> String {
        try make("mpeg2.ts", pattern + ["-c:v", "mpeg2video", "-q:v", "3"] + bt709 + ["-f", "mpegts"])
    }

    /// NTSC DV in AVI: 720×480 at 8:9 sample aspect ratio, shown as 640×480.
    static func dvAVI() throws -> String {
        try make(
            "dv.avi",
            ["-f", "lavfi", "-i", "testsrc2=size=720x480:rate=30000/1001:duration=1"]
                + ["-vf", "setsar=8/9", "-c:v", "dvvideo", "-pix_fmt", "yuv411p"])
    }

    /// A portrait clip: the display matrix turns the 320×240 frames by `degrees` (FFmpeg's `rotate` tag).
    static func rotated(_ degrees: Int) throws -> String {
        let source = try h264MP4()
        return try make("rotate-\(degrees).mov", ["-i", source, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)"])
    }

    static let contentIdentifier = "1F2E3D4C-5B6A-4789-8ABC-DEF012345678"

    /// A movie with the QuickTime metadata an iPhone writes.
    static func quickTimeMetadata() throws -> String {
        try make(
            "iphone.mov",
            pattern + tone + ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + bt709 + [
                "-c:a", "aac", "-shortest", "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.creationdate=2023-06-14T18:42:31+0200",
                "-metadata", "creation_time=2023-06-14T16:42:35Z",
                "-metadata", "com.apple.quicktime.make=Apple",
                "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
                "-metadata", "com.apple.quicktime.software=17.1",
                "-metadata", "com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/",
                "-metadata", "com.apple.quicktime.content.identifier=\(contentIdentifier)",
            ])
    }

    /// A longer clip with a keyframe every second, for choosing the poster's keyframe.
    static func keyframes() throws -> String {
        try make(
            "keyframes.mp4",
            ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=12"]
                + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0"] + bt709)
    }

    /// A movie with more audio streams than the limit allows.
    static func manyStreams(_ count: Int) throws -> String {
        var arguments = pattern
        for _ in 0..<count { arguments += ["-f", "lavfi", "-i", "sine=duration=1"] }
        arguments += ["-map", "0:v"]
        for i in 1...count { arguments += ["-map", "\(i):a"] }
        return try make("streams-\(count).mkv", arguments + ["-c:v", "libx264", "-c:a", "flac", "-shortest"])
    }

    /// A clip with the moov box before the data (faststart), so a truncated copy still has its headers.
    static func fastStart() throws -> String {
        try make("faststart.mp4", pattern + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"] + bt709)
    }
}
