import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import SepiaTestSupport
import Synchronization
import Testing

/// A `sepia` child process whose output is collected as it comes, and which can be killed.
final class ChildProcess: Sendable {
    private let running: ExternalProgram.Running

    init(_ arguments: [String]) throws {
        running = try ExternalProgram.launch(CommandRunner.executable.path, arguments)
    }

    func kill() {
        running.kill(SIGKILL)
    }

    /// Waits, on a thread of its own, for the process to end and returns its status and output.
    func wait() async -> (status: Int32, killed: Bool, stdout: String, stderr: String) {
        let result = await running.wait()
        return (result.status, result.wasSignalled, result.output, result.errors)
    }
}

@Suite(.serialized) struct LibraryProcessTests {
    /// Writes `count` distinct photos of a few hundred kilobytes into a new folder.
    static func photoFolder(_ count: Int, seed: Int) throws -> String {
        let folder = try CommandRunner.temporaryFolder().path
        for i in 0..<count {
            let width = 640, height = 480
            var bytes = [UInt8](repeating: 0, count: width * height * 3)
            var state = UInt64(seed * 1000 + i + 1) &* 0x9E37_79B9_7F4A_7C15
            for p in stride(from: 0, to: bytes.count, by: 3) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let x = (p / 3) % width, y = (p / 3) / width
                bytes[p] = UInt8(truncatingIfNeeded: x + Int(state & 31))
                bytes[p + 1] = UInt8(truncatingIfNeeded: y + i * 40)
                bytes[p + 2] = UInt8(truncatingIfNeeded: Int(state >> 8 & 255))
            }
            let jpeg = try ImageEncoding.encode(Bitmap(width: width, height: height, layout: .rgb, bytes: bytes), as: .jpeg)
            try Data(jpeg).write(to: URL(fileURLWithPath: "\(folder)/photo-\(seed)-\(i).jpg"))
        }
        return folder
    }

    static func ids(in library: String) async throws -> Set<String> {
        let result = try await CommandRunner.run(["list", "--include-hidden", "--json", "--library", library])
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(list.compactMap { $0["id"] as? String })
    }

    @Test("killed with SIGKILL at random moments during imports and edits, the library stays sound and keeps every committed photo")
    func crash() async throws {
        let library = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        // Kills are spread over the time a run takes here; each span adapts to the machine's load: shorter
        // after a run that finished before its kill, longer after one that was killed.
        let timing = Date()
        let first = try await CommandRunner.run(["import", try Self.photoFolder(8, seed: 0), "--library", library, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        var importSpan = max(0.2, Date().timeIntervalSince(timing) * 0.8)
        var committed = try await Self.ids(in: library)
        #expect(committed.count == 8)
        let editTiming = Date()
        #expect(try await CommandRunner.run(["edit", committed.first!, "CISepiaTone", "--library", library]).status == 0)
        var editSpan = max(0.05, Date().timeIntervalSince(editTiming) * 0.8)

        var interrupted = 0
        var cleanedUp = 0
        for round in 0..<30 {
            let child: ChildProcess
            let isEdit = round % 3 == 2
            if isEdit, let target = committed.randomElement() {
                let filter = ["CISepiaTone", "CIPhotoEffectNoir", "CIVignette", "CIGaussianBlur"].randomElement()!
                child = try ChildProcess(
                    Bool.random() ? ["edit", target, filter, "--library", library] : ["revert", target, "--library", library])
            } else {
                child = try ChildProcess(["import", try Self.photoFolder(6, seed: round + 1), "--library", library, "--json"])
            }
            try await Task.sleep(for: .seconds(Double.random(in: 0...(isEdit ? editSpan : importSpan))))
            child.kill()
            let ended = await child.wait()
            let killed = ended.killed
            if killed { interrupted += 1 }
            if isEdit { editSpan *= killed ? 1.1 : 0.7 } else { importSpan *= killed ? 1.1 : 0.7 }
            // Every photo the import reported as imported was committed before it said so.
            for line in ended.stdout.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["status"] as? String == "imported", let id = object["assetID"] as? String
                else { continue }
                committed.insert(id)
            }

            let check = try await CommandRunner.run(["check", "--library", library, "--json"])
            #expect(check.status == 0, "round \(round): \(check.stdout) \(check.stderr)")
            if check.stdout.contains("removed") { cleanedUp += 1 }
            let present = try await Self.ids(in: library)
            #expect(committed.isSubset(of: present), "round \(round): lost \(committed.subtracting(present))")
            committed = present
            if check.status != 0 { break }
        }
        // The kills did land while work was under way, and some left files behind that opening cleaned up.
        #expect(interrupted >= 12, "only \(interrupted) of 30 runs were interrupted")
        print(
            "crash test: \(interrupted) of 30 runs killed mid-way; \(cleanedUp) left files that the next open removed; \(committed.count) photos kept"
        )
    }

    @Test("a change made by another process reaches this process's observer")
    func crossProcessObservation() async throws {
        let folder = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        #expect(try await CommandRunner.run(["import", try Self.photoFolder(3, seed: 50), "--library", folder]).status == 0)
        let library = try PhotoLibrary.open(
            at: folder, configuration: LibraryConfiguration(changePollInterval: .milliseconds(50), watchesMemoryPressure: false))
        let result = try library.fetchAssets()
        #expect(result.count == 3)
        let target = try result.object(at: 1)
        var iterator = library.changes(for: result).makeAsyncIterator()
        let child = try ChildProcess(["favorite", target.id, "--library", folder])
        #expect(await child.wait().status == 0)
        let details = try #require(await iterator.next())
        #expect(details.changedIndexes == IndexSet(integer: 1))
        #expect(try details.changedObjects().first?.isFavorite == true)

        let importer = try ChildProcess(["import", try Self.photoFolder(2, seed: 51), "--library", folder])
        #expect(await importer.wait().status == 0)
        // An import commits what it has prepared every 2 seconds, so on a busy machine the two photos may arrive
        // in two notifications: each says what it inserted, and the last one shows all five.
        var insertedCount = 0
        var countAfterChanges = 3
        while countAfterChanges < 5 {
            let inserted = try #require(await iterator.next())
            insertedCount += inserted.insertedIndexes?.count ?? 0
            countAfterChanges = inserted.fetchResultAfterChanges.count
        }
        #expect(insertedCount == 2)
        #expect(countAfterChanges == 5)
        library.close()
    }

    @Test("two processes and this one write at once without 'database is locked' reaching anyone")
    func twoProcesses() async throws {
        let folder = try CommandRunner.temporaryFolder().appendingPathComponent("lib").path
        #expect(try await CommandRunner.run(["import", try Self.photoFolder(6, seed: 60), "--library", folder]).status == 0)
        let library = try PhotoLibrary.open(at: folder, configuration: LibraryConfiguration(watchesMemoryPressure: false))
        let ids = try library.fetchAssets().allObjects().map(\.id)

        let importers = [
            try ChildProcess(["import", try Self.photoFolder(10, seed: 61), "--library", folder, "--album", "A"]),
            try ChildProcess(["import", try Self.photoFolder(10, seed: 62), "--library", folder, "--album", "B"]),
        ]
        var failures: [String] = []
        for i in 0..<60 {
            do {
                try await library.performChanges { changes in
                    changes.setFavorite(i % 2 == 0, for: ids[i % ids.count])
                    changes.setHidden(i % 5 == 0, for: ids[(i + 1) % ids.count])
                }
                _ = try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).allObjects()
            } catch {
                failures.append("\(error)")
            }
        }
        for child in importers {
            let ended = await child.wait()
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(!ended.stderr.contains("locked"))
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(try library.fetchAssets(FetchOptions(includeHiddenAssets: true)).count == 26)
        #expect(try await library.check().isSound)
        library.close()
    }
}
