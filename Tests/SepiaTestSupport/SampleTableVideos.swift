import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Videos whose sample tables say more than their bytes — the hostile uploads of a video job that runs away —
/// and long, plausible clips that are cheap to make: made at test time by `scripts/sample-table-video` (Debian's
/// ffmpeg encodes a few frames, then the script rewrites the MP4's sample tables), kept in a cache folder under
/// a name that holds the recipe.
public enum SampleTableVideos {
    /// How the samples point at the frames ffmpeg encoded (the script's `--layout`).
    public enum Layout: String, Sendable {
        /// The first frame, then every sample pointing at the second frame's bytes.
        case shared
        /// The same, each sample its own copy of those bytes.
        case copies
        /// A short clip of moving pictures repeated, each repetition its own copy.
        case repeated = "repeat"
    }

    static let script = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/sample-table-video").path

    static let cache: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-sample-table-videos")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The movie of `samples` samples of `width`×`height` frames (H.264 in `pixelFormat`) laid out as `layout`,
    /// in an MP4 of major brand `brand` (3GP's `3gp5` makes the server encode a playable version). `seconds` is the
    /// time the samples span, `declaredSeconds` the duration the headers declare (both by default `samples` at
    /// `rate`).
    public static func make(
        _ layout: Layout, width: Int, height: Int, samples: Int, rate: String = "30000/1001", pixelFormat: String = "yuv444p",
        brand: String = "3gp5", clipFrames: Int = 30, seconds: Double? = nil, declaredSeconds: Double? = nil
    ) throws -> String {
        var arguments = [
            "--layout", layout.rawValue, "--size", "\(width)x\(height)", "--samples", String(samples), "--rate", rate, "--pix-fmt", pixelFormat,
            "--brand", brand, "--clip-frames", String(clipFrames),
        ]
        if let seconds { arguments += ["--seconds", String(seconds)] }
        if let declaredSeconds { arguments += ["--declared-seconds", String(declaredSeconds)] }
        let name = arguments.joined(separator: "_").replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "--", with: "") + ".3gp"
        let path = cache.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        // Written beside, then renamed: a concurrent test never sees half a file.
        let partial = path + ".\(getpid()).\(UUID().uuidString).3gp"
        let result = try ExternalProgram.run("/usr/bin/env", ["python3", script, partial] + arguments)
        guard result.status == 0 else {
            throw ExternalProgram.Failure(
                description: "scripts/sample-table-video failed (it needs python3 and Debian's ffmpeg: scripts/setup): \(result.errors)")
        }
        guard rename(partial, path) == 0 else { throw ExternalProgram.Failure(description: "cannot rename \(partial): \(errno)") }
        return path
    }
}
