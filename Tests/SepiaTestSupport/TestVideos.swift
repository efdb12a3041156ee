public import Foundation
import Testing

/// Videos and Live Photo stills for the tests, made at test time: the clips by Debian's `ffmpeg` from its
/// synthetic sources, the stills from a JPEG the test made, with an Apple maker note added. Nothing third-party.
public enum TestVideos {
    /// Debian's ffmpeg, which makes the clips.
    public static let ffmpeg = "/usr/bin/ffmpeg"

    /// Why a clip could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// The command and what it wrote on standard error, or what is missing.
        public let description: String

        /// A failure described by `description`.
        public init(description: String) { self.description = description }
    }

    /// A new, empty folder for clips.
    public static func folder() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-clips-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// A two-second 320x240 H.264/AAC clip in `folder/name`, turned to portrait by its display matrix when
    /// `portrait`, with QuickTime metadata `keys` (creation date, location, content identifier…). `pattern`
    /// changes the picture, so that two clips differ.
    @discardableResult
    public static func clip(
        _ name: String, in folder: String, portrait: Bool = false, keys: [String: String] = [:], pattern: Int = 0, seconds: Int = 2,
        codec: [String] = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"]
    ) throws -> String {
        let path = folder + "/" + name
        let encoded = folder + "/.encoding-" + name
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        let quiet = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
        try run(
            quiet + [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=\(seconds),hue=h=\(pattern * 40)", "-f", "lavfi", "-i",
                "sine=frequency=\(440 + pattern * 10):duration=\(seconds)",
            ] + codec + ["-shortest", encoded])
        // Metadata and the rotation are written by a stream copy: ffmpeg sets the display matrix from the rotate
        // tag only when copying.
        var arguments = quiet + ["-i", encoded, "-c", "copy"]
        if portrait { arguments += ["-metadata:s:v:0", "rotate=90"] }
        if !keys.isEmpty { arguments += ["-movflags", "use_metadata_tags"] }
        for (key, value) in keys.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        try run(arguments + [path])
        return path
    }

    /// Runs `executable` (ffmpeg, or ffprobe) with `arguments`; returns its standard output. Fails the test,
    /// naming what to install, when it is missing.
    @discardableResult
    public static func run(_ arguments: [String], executable: String = ffmpeg) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            let message = "\(executable) is missing: the video tests make their clips with Debian's ffmpeg; run scripts/setup to install it"
            Issue.record(Comment(rawValue: message))
            throw Failure(description: message)
        }
        let result = try ExternalProgram.run(executable, arguments)
        guard result.status == 0 else {
            throw Failure(
                description: "\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(result.errors)")
        }
        return result.stdout
    }

    /// `jpeg` with an EXIF segment carrying an Apple maker note with `identifier`, as an iPhone's Live Photo
    /// still has (tag 0x0011 of the `Apple iOS` note).
    public static func liveStill(identifier: String, jpeg: Data) -> Data {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let value = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + u16(1) + Array("MM".utf8) + u16(2)
        note += u16(0x0001) + u16(9) + u32(1) + u32(14)
        note += u16(0x0011) + u16(2) + u32(value.count) + u32(14 + 2 + 2 * 12 + 4)
        note += u32(0) + value
        var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
        tiff += u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(44) + u32(0)
        let exif = Array("Exif\0\0".utf8) + tiff + note
        let app1: [UInt8] = [0xFF, 0xE1] + u16(exif.count + 2) + exif
        let bytes = [UInt8](jpeg)
        return Data(bytes.prefix(2) + app1 + bytes.dropFirst(2))
    }
}
