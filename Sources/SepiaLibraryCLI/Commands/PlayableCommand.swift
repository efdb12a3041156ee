import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaVideo

/// `sepia playable VIDEO -o OUT.mp4`: the playable version the server makes for browsers.
struct PlayableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playable",
        abstract: "Make a video's playable version: H.264 and AAC in an MP4 that every browser plays.",
        discussion: """
            The same encode the server's job queue does for videos browsers do not play (HEVC, MPEG-4, AVI, MTS…): \
            libx264 at CRF 23 (preset veryfast), the picture fitted to 1920x1080 in its own orientation with square \
            pixels, AAC audio copied and other audio encoded again, the index first (faststart), the rotation and \
            colour description kept. Prints whether the original plays as it is; --force encodes it all the same.
            """)

    @Argument(help: "The video.")
    var video: String

    @Option(name: .short, help: "The MP4 to write.")
    var output: String

    @Flag(name: .long, help: "Encode even when the original plays in browsers as it is.")
    var force = false

    @Option(name: .long, help: "libx264's constant rate factor (0-51, default 23).")
    var crf: Int?

    @Option(name: .long, help: "libx264's preset (ultrafast … veryslow, default veryfast).")
    var preset: String?

    func validate() throws {
        if let crf, !(0...51).contains(crf) { throw ValidationError("--crf must be between 0 and 51") }
        let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]
        if let preset, !presets.contains(preset) { throw ValidationError("--preset must be one of \(presets.joined(separator: ", "))") }
    }

    func run() async throws {
        try await reportingErrors {
            let info = try VideoProbe.probe(path: video)
            if !PlayableVideo.needsPlayableVersion(info) && !force {
                Terminal.print(
                    "\(video): plays in browsers as it is (\(info.video.codecName) in \(info.format)); nothing written (--force encodes it)")
                return
            }
            var settings = PlayableVideo.Settings()
            if let crf { settings.constantRateFactor = crf }
            if let preset { settings.preset = preset }
            let start = ContinuousClock.now
            try PlayableVideo.encode(path: video, to: output, settings: settings)
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let duration = info.duration ?? 0
            Terminal.print(
                String(
                    format: "%@: %.1f s of video encoded in %.1f s (%.1fx real time) → %@", video, duration, seconds, duration / max(seconds, 1e-6),
                    output))
        }
    }
}
