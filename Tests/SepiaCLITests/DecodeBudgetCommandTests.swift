import Foundation
import SepiaTestSupport
import Testing

/// `sepia info --verify` and `sepia thumbnail` on TIFFs of a few hundred bytes whose headers declare huge tiles:
/// each run is refused with exit status 65 and the reason, its peak memory bounded (the run is measured by GNU
/// time, under an address-space limit far below what the tiles would take); and `--verify`, which decodes
/// strictly, fails on a damaged file.
@Suite("Decode memory budget on the command line")
struct DecodeBudgetCommandTests {
    /// Address space a run may map: the command's own (threads, libraries) with room to spare, but a twentieth
    /// of the 12.9 GB the 65536×65536 tiles declare.
    static let addressSpace = 2 << 30
    /// Peak resident memory a refused run may reach, in KiB: the command's own, with nothing of the tiles'.
    static let peakKiB = 200 << 10

    /// Runs `sepia` measured: its result, and its peak resident memory in KiB.
    static func measured(_ arguments: [String]) throws -> (CommandRunner.Result, Int) {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("time")
        let result = try CommandRunner.runBlocking(
            ["-o", report.path, "-f", "%M", "/usr/bin/prlimit", "--as=\(addressSpace)", "--", CommandRunner.executable.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/time"))
        let peak = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) } ?? -1
        return (result, peak)
    }

    @Test("info --verify and thumbnail refuse a 64x64 TIFF in 65536x65536 or 16384x16384 tiles, in bounded memory", arguments: [65536, 16384])
    func hugeTiles(_ side: Int) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tiles.tif")
        try Data(HostileTIFF.tiles(UInt32(side))).write(to: file)
        let (verify, verifyPeak) = try Self.measured(["info", "--verify", file.path])
        #expect(verify.status == 65, "\(verify.stdout) \(verify.stderr)")
        #expect(verify.stdout.contains("tiles of \(side)x\(side) pixels for a 64x64 image"), "\(verify.stdout)")
        #expect(verifyPeak > 0 && verifyPeak < Self.peakKiB, "info --verify peaked at \(verifyPeak) KiB")
        let output = folder.appendingPathComponent("thumbnail.jpg")
        let (thumbnail, thumbnailPeak) = try Self.measured(["thumbnail", file.path, "--size", "64x64", "-o", output.path])
        #expect(thumbnail.status == 65, "\(thumbnail.stdout) \(thumbnail.stderr)")
        #expect(thumbnail.stderr.contains("--max-decode-bytes"), "\(thumbnail.stderr)")
        #expect(thumbnailPeak > 0 && thumbnailPeak < Self.peakKiB, "thumbnail peaked at \(thumbnailPeak) KiB")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // Raised on the command line, the budget admits the file (which is then read, header only); the option's
        // value, all digits, is not taken for a library photo's identifier.
        let raised = try CommandRunner.runBlocking(["info", "--max-pixels", "100000000", "--max-decode-bytes", "\(1 << 34)", file.path])
        #expect(raised.status == 0, "\(raised.stdout) \(raised.stderr)")
        #expect(raised.stdout.contains("64x64"), "\(raised.stdout)")
    }

    @Test("info --verify decodes strictly: 65 for damage, 0 for an intact file or a harmless anomaly (a warning)")
    func verifyFailsOnDamage() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = CommandRunner.fixture("photos/flower.jpg")
        let whole = try Data(contentsOf: URL(fileURLWithPath: photo))
        let cut = folder.appendingPathComponent("cut.jpg")
        try whole.prefix(whole.count * 2 / 3).write(to: cut)
        let header = try await CommandRunner.run(["info", cut.path])
        #expect(header.status == 0, "the header alone is intact: \(header.stdout)")
        let damaged = try await CommandRunner.run(["info", "--verify", cut.path])
        #expect(damaged.status == 65, "\(damaged.stdout)")
        #expect(damaged.stdout.contains("Premature end of JPEG file"), "\(damaged.stdout)")
        #expect(try await CommandRunner.run(["info", "--verify", photo]).status == 0)
        let anomaly = try await CommandRunner.run(["info", "--verify", CommandRunner.fixture("malformed/junk_jpeg_header.jpg")])
        #expect(anomaly.status == 0 && anomaly.stdout.contains("extraneous bytes"), "\(anomaly.stdout)")
    }
}
