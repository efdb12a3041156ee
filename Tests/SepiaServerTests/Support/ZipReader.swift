import Foundation
import SepiaTestSupport
import Testing

/// Reads a ZIP archive the way other programs do, to check what the server writes: Python's `zipfile` (every
/// entry's name, size, CRC, date and bytes, and its own CRC check of every entry) and Info-ZIP's `unzip -t`.
enum ZipReader {
    struct Entry: Decodable {
        var name: String
        var size: UInt64
        var crc: UInt32
        /// Year, month, day, hour, minute, second, as the DOS fields give them.
        var date: [Int]
        /// The general purpose flags.
        var flags: Int
        /// 0: stored.
        var method: Int
        /// The Unix mode the central directory gives (its external attributes' high half).
        var mode: Int
        /// The bytes, read back (nil when the caller did not want them).
        var bytes: Data?

        enum CodingKeys: String, CodingKey { case name, size, crc, date, flags, method, mode }
    }

    struct Archive {
        var entries: [Entry]
        /// What `zipfile.testzip()` said: nil when every CRC matched, else the first bad entry's name.
        var firstBadEntry: String?
        /// Whether `unzip -tqq` passed it (nil when `unzip` is not installed).
        var unzipPassed: Bool?
    }

    static let script = """
        import json, os, sys, zipfile
        path, out, keep = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
            entries = []
            for i, info in enumerate(z.infolist()):
                if keep:
                    with open(os.path.join(out, str(i)), "wb") as f:
                        f.write(z.read(info))
                entries.append({"name": info.filename, "size": info.file_size, "crc": info.CRC, "date": list(info.date_time),
                                "flags": info.flag_bits, "method": info.compress_type, "mode": info.external_attr >> 16})
        print(json.dumps({"bad": bad, "entries": entries}))
        """

    /// Reads the archive at `path`; with `contents`, each entry's bytes too. Without `unzip`, `zipfile` alone checks
    /// the CRCs: Info-ZIP's `unzip -t` reads an entry at about 0.2 GB/s here, `zipfile` at 1.7, so a check of an entry
    /// of several GiB is left to the one.
    static func read(path: String, contents: Bool = true, unzip testsWithUnzip: Bool = true) throws -> Archive {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-zip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try run("/usr/bin/env", ["python3", "-c", script, path, folder, contents ? "1" : "0"])
        guard output.status == 0 else {
            throw Failure(description: "python3 zipfile refused the archive: \(String(decoding: output.stderr, as: UTF8.self))")
        }
        struct Answer: Decodable {
            var bad: String?
            var entries: [Entry]
        }
        let answer = try JSONDecoder().decode(Answer.self, from: output.stdout)
        var entries = answer.entries
        if contents {
            for index in entries.indices {
                entries[index].bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/\(index)"))
            }
        }
        var unzip: Bool?
        if testsWithUnzip && FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            unzip = try run("/usr/bin/unzip", ["-tqq", path]).status == 0
        }
        return Archive(entries: entries, firstBadEntry: answer.bad, unzipPassed: unzip)
    }

    /// Reads an archive held in memory.
    static func read(_ data: Data, contents: Bool = true) throws -> Archive {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-\(UUID().uuidString).zip").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try read(path: path, contents: contents)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let result = try ExternalProgram.run(executable, arguments)
        return (result.status, result.stdout, result.stderr)
    }
}
