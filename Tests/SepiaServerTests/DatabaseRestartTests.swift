import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

/// The PostgreSQL server stopped and started again under a running Sepia server. Stops the database the
/// other suites use, so it runs alone: `scripts/test` gives it a step of its own.
@Suite(
    "The database restarted under a running server",
    .enabled(if: ProcessInfo.processInfo.environment["SEPIA_TEST_POSTGRES_DIR"]?.isEmpty == false))
struct DatabaseRestartTests {
    static func postgres(_ command: String) throws {
        let environment = ProcessInfo.processInfo.environment
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres").path
        // system(3), not Process: the server the script starts outlives it, and Foundation's Process then waits
        // for it too.
        let status = system("'\(script)' \(command) '\(environment["SEPIA_TEST_POSTGRES_DIR"]!)' >/dev/null 2>&1 </dev/null")
        #expect(status == 0, "scripts/postgres \(command)")
    }

    @Test("while PostgreSQL is down requests fail with 503 and say why; once it is back they succeed, without restarting Sepia")
    func restart() async throws {
        let server = TestServer()
        let (app, token) = try await server.build()
        try await app.test(.live) { client in
            let owner = try await Client.createOwner(client, setupToken: token!)
            let reader = try await owner.token("read")
            let id = try await owner.uploadNew(1)
            #expect(try await reader.request(.get, "/api/v1/assets").status == .ok)

            try Self.postgres("stop")
            var restarted = false
            defer { if !restarted { try? Self.postgres("start") } }
            // Reads and writes, by a credential still cached and by one that must be looked up.
            for request in [
                { try await reader.request(.get, "/api/v1/assets") },
                { try await owner.request(.patch, "/api/v1/assets/\(id)", json: #"{"isFavorite": true}"#) },
                {
                    try await owner.anonymous.request(
                        .post, "/api/v1/session", json: #"{"username": "owner", "password": "correct horse battery"}"#)
                },
            ] {
                let response = try await request()
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("database cannot be reached"), "\(String(buffer: response.body))")
            }

            try Self.postgres("start")
            restarted = true
            #expect(try await reader.request(.get, "/api/v1/assets").status == .ok)
            #expect(try await owner.request(.patch, "/api/v1/assets/\(id)", json: #"{"isFavorite": true}"#).status == .ok)
            #expect(try await owner.anonymous.login("owner").request(.get, "/api/v1/session").status == .ok)
        }
    }
}
