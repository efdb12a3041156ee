import Foundation
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaCodecs

/// HEIC files coded at test time by heif-enc (Debian's libheif-examples).
enum HEIFEncoder {
    /// `bitmap` coded as a HEIC by heif-enc at `quality`.
    static func heic(_ bitmap: Bitmap, quality: Int = 60) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-heif-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png")
        let output = folder.appendingPathComponent("out.heic")
        try Data(try ImageEncoding.encode(bitmap, as: .png)).write(to: input)
        let result: ExternalProgram.Result
        do {
            result = try ExternalProgram.run("/usr/bin/heif-enc", ["-q", "\(quality)", "-o", output.path, input.path])
        } catch {
            Issue.record("heif-enc (Debian package libheif-examples, installed by scripts/setup) is needed: \(error)")
            throw error
        }
        try #require(result.status == 0, "heif-enc: \(result.errors)")
        return [UInt8](try Data(contentsOf: output))
    }
}
