import Foundation
import Testing

@testable import SepiaLibrary

/// A connection the PostgreSQL server ends in the middle of a transaction (a restart, an administrator's
/// `pg_terminate_backend`, a network failure): the transaction's next statement and its `ROLLBACK` fail at
/// once as "the database cannot be reached", and the pool's next transaction works on a new connection.
@Suite("A PostgreSQL connection lost mid-transaction", .enabled(if: TestLibrary.onPostgreSQL))
struct PostgresConnectionLossTests {
    @Test(
        "the statement after the server ended the connection fails with unavailable instead of waiting forever",
        .timeLimit(.minutes(1)))
    func statementAfterTheConnectionEnded() throws {
        let location = try TestLibrary.postgreSQL!.schema("test_loss_" + UUID().uuidString.prefix(8).lowercased())
        let database = try PostgresDatabase(location: location)
        defer { try? database.readStatement { db in _ = try db.execute("DROP SCHEMA \"\(location.schema)\" CASCADE", []) } }

        var lost: (any Error)?
        do {
            try database.read { db in
                let pid = try db.values("SELECT pg_backend_pid()", as: Int64.self)[0]
                // Another connection of the pool ends this one, as a server shutting down does.
                try database.readStatement { other in _ = try other.fetch("SELECT pg_terminate_backend(?::int)", [pid]) }
                let lease = (db as! PostgresSession).lease
                let deadline = Date().addingTimeInterval(10)
                while !lease.isClosed && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                #expect(lease.isClosed)
                _ = try db.fetch("SELECT count(*) FROM asset", [])
            }
        } catch {
            lost = error
        }
        let failure = try #require(lost as? SQLFailure)
        guard case .unavailable(let message) = failure else {
            Issue.record("expected unavailable, got \(failure)")
            return
        }
        #expect(message.contains("closed"), "\(message)")

        // The closed connection left the pool; the next transaction gets a working one.
        #expect(try database.read { db in try db.values("SELECT count(*) FROM asset", as: Int64.self) } == [0])
    }
}
