import Foundation
import Testing

/// `sepia faces`: index a library's photos, list and name the people, turn faces off, and what it says when the
/// models are not installed.
@Suite struct FacesCommandTests {
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test("index a library, list and name its people, turn faces off and on; missing models say what installs them")
    func faces() async throws {
        let folder = try CommandRunner.temporaryFolder()
        let library = folder.appendingPathComponent("lib").path
        let johns = "/usr/share/doc/libdlib19.1/examples/johns/John_Savage"
        let imported = try await CommandRunner.run(["import", johns, CommandRunner.fixture("faces/biden.jpg"), "--library", library])
        #expect(imported.status == 0, "\(imported.stderr)")

        // Without the models, indexing stops at once with exit 69 and the command that installs them.
        let noModels = try CommandRunner.runBlocking(
            ["faces", "index", "--library", library], environment: ["SEPIA_FACE_MODELS": folder.appendingPathComponent("none").path])
        #expect(noModels.status == 69)
        #expect(noModels.stderr.contains("scripts/setup"))

        let indexed = try await CommandRunner.run(["faces", "index", "--json", "--jobs", "2", "--library", library])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let report = try #require(try Self.json(indexed.stdout) as? [String: Any])
        #expect(report["indexed"] as? Int == 12)
        #expect(report["faces"] as? Int == 12)

        let people = try #require(
            try Self.json(try await CommandRunner.run(["faces", "people", "--json", "--library", library]).stdout) as? [[String: Any]])
        #expect(people.count == 1)
        #expect(people.first?["assetCount"] as? Int == 11)
        let id = try #require(people.first?["id"] as? String)
        #expect(try await CommandRunner.run(["faces", "name", String(id.prefix(8)), "John Savage", "--library", library]).status == 0)
        let listed = try await CommandRunner.run(["faces", "people", "--library", library])
        #expect(listed.stdout.contains("John Savage") && listed.stdout.contains("11 photos"))
        let status = try await CommandRunner.run(["faces", "status", "--library", library])
        #expect(status.stdout.contains("12 of 12 items searched"))
        #expect(status.stdout.contains("1 person (1 named), 1 not yet anyone's"))

        // Off asks first; with --yes it deletes every face and name.
        let unconfirmed = try await CommandRunner.run(["faces", "off", "--library", library])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"))
        #expect(try await CommandRunner.run(["faces", "off", "--yes", "--library", library]).status == 0)
        let none = try Self.json(try await CommandRunner.run(["faces", "people", "--json", "--library", library]).stdout) as? [Any]
        #expect(none?.isEmpty == true)
        let refused = try await CommandRunner.run(["faces", "index", "--library", library])
        #expect(refused.status == 64 && refused.stderr.contains("sepia faces on"))
        #expect(try await CommandRunner.run(["faces", "on", "--library", library]).status == 0)
        #expect(try await CommandRunner.run(["faces", "index", "--library", library]).status == 0)
        let again = try await CommandRunner.run(["faces", "people", "--library", library])
        #expect(again.stdout.contains("11 photos") && !again.stdout.contains("John Savage"))
    }
}
