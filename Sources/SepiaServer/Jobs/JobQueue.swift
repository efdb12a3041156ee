import Foundation
import SepiaLibrary

/// The deferred work of a deployment, in the `job` table of the server's database: no broker beside the
/// database. Any server may take a job; a job is done once however many servers take from the queue.
///
/// A server takes a job with `SELECT … FOR UPDATE SKIP LOCKED` (so two servers asking at the same moment take
/// different rows without waiting for each other) and leases it: the row's `runAfter` moves past the lease,
/// and its attempts are counted in the same transaction. A job done is deleted. A server killed mid-job
/// leaves its row leased; when the lease runs out, another server takes it again. A job that fails for a
/// reason that may pass (storage or the database down) waits longer before each retry, and after
/// ``maximumAttempts`` stays in the table, with its last error, for an operator to look at (``failed()``); one
/// that fails for a reason that will not change (a video Sepia refuses, an encode over its budget) stays there
/// at once (``failForGood(_:error:)``). A job a server gives back as it shuts down is not an attempt
/// (``release(_:)``). Each job is in a lane (``Job/Lane``), and each worker takes from one.
struct JobQueue: Sendable {
    let database: any SQLDatabase
    /// Who takes jobs, for the table: the host and process.
    let worker: String
    /// Attempts after which a job is no longer taken.
    let maximumAttempts = 5

    init(database: any SQLDatabase, worker: String = JobQueue.processName) {
        self.database = database
        self.worker = worker
    }

    /// This process, as `host:pid`.
    static var processName: String {
        ProcessInfo.processInfo.hostName + ":" + String(ProcessInfo.processInfo.processIdentifier)
    }

    /// Adds a job, unless the same one is waiting already.
    func enqueue(_ kind: Job.Kind, library: String, subject: String, now: Date = Date()) throws {
        let time = now.timeIntervalSince1970
        _ = try database.write { db in
            try db.execute(
                """
                INSERT INTO job (kind, library, subject, createdAt, runAfter, attempts)
                VALUES (?, ?, ?, ?, ?, 0)
                ON CONFLICT (kind, library, subject) DO NOTHING
                """, [kind.rawValue, library, subject, time, time])
        }
    }

    /// Asks for a job whose work may have grown since it was added (a library's faces): adds it, or, when it is
    /// waiting already, leaves it waiting; when a server is doing it now, that server does it again once it is
    /// done (``complete(_:now:)``), so that what was added during its run is not left out. A job that failed for
    /// good is given its attempts again: what it works on has changed.
    func request(_ kind: Job.Kind, library: String, subject: String, now: Date = Date()) throws {
        let time = now.timeIntervalSince1970
        _ = try database.write { db in
            try db.execute(
                """
                INSERT INTO job (kind, library, subject, createdAt, runAfter, attempts)
                VALUES (?, ?, ?, ?, ?, 0)
                ON CONFLICT (kind, library, subject) DO UPDATE SET createdAt = excluded.createdAt,
                  runAfter = CASE WHEN job.attempts >= ? THEN excluded.runAfter ELSE job.runAfter END,
                  lastError = CASE WHEN job.attempts >= ? THEN NULL ELSE job.lastError END,
                  attempts = CASE WHEN job.attempts >= ? THEN 0 ELSE job.attempts END
                """, [kind.rawValue, library, subject, time, time, maximumAttempts, maximumAttempts, maximumAttempts])
        }
    }

    /// Takes the job of `lane` that has waited longest and is due, leased for `lease` seconds; nil when none is due.
    func take(_ lane: Job.Lane = .quick, lease: TimeInterval, now: Date = Date()) throws -> Job? {
        let time = now.timeIntervalSince1970
        return try database.rowLockingWrite { db -> Job? in
            guard
                let row = try db.fetchOne(
                    """
                    SELECT id, kind, library, subject, attempts, createdAt FROM job
                    WHERE runAfter <= ? AND attempts < ? AND lane = ?
                    ORDER BY runAfter, id LIMIT 1
                    """ + database.dialect.forUpdateSkipLocked, [time, maximumAttempts, lane.rawValue])
            else { return nil }
            let id: Int64 = row[0]
            let attempts: Int = row[4]
            _ = try db.execute("UPDATE job SET attempts = ?, runAfter = ?, takenBy = ? WHERE id = ?", [attempts + 1, time + lease, worker, id])
            guard let kind = Job.Kind(rawValue: row[1]) else {
                // A kind a newer version added: left for a server that knows it.
                return nil
            }
            return Job(id: id, kind: kind, lane: lane, library: row[2], subject: row[3], attempts: attempts + 1, requested: row[5])
        }
    }

    /// Renews the lease of a job this server holds, so that no other server takes it while the work goes on, and
    /// records how far it has come (0 to 1, for the change stream of every server) when `progress` is given.
    /// False when the job is no longer this server's: done or removed meanwhile, or its lease ran out and
    /// another server took it.
    @discardableResult
    func extend(_ job: Job, lease: TimeInterval, progress: Double? = nil, now: Date = Date()) throws -> Bool {
        let until = now.timeIntervalSince1970 + lease
        let changed = try database.write { db in
            if let progress {
                return try db.execute(
                    "UPDATE job SET runAfter = ?, progress = ? WHERE id = ? AND takenBy = ? AND attempts = ?",
                    [until, min(1, max(0, progress)), job.id, worker, job.attempts])
            }
            return try db.execute("UPDATE job SET runAfter = ? WHERE id = ? AND takenBy = ? AND attempts = ?", [until, job.id, worker, job.attempts])
        }
        return changed > 0
    }

    /// Records how far a job this server holds has come (0 to 1), for the change stream of every server.
    func report(_ job: Job, progress: Double) throws {
        _ = try database.write { db in
            try db.execute("UPDATE job SET progress = ? WHERE id = ? AND takenBy = ?", [min(1, max(0, progress)), job.id, worker])
        }
    }

    /// Gives back a job this server holds without doing it, as it shuts down: due again at once, for any server,
    /// and the attempt it took is not counted.
    func release(_ job: Job, now: Date = Date()) throws {
        _ = try database.write { db in
            try db.execute(
                """
                UPDATE job SET attempts = attempts - 1, runAfter = ?, takenBy = NULL, progress = NULL
                WHERE id = ? AND takenBy = ? AND attempts = ?
                """, [now.timeIntervalSince1970, job.id, worker, job.attempts])
        }
    }

    /// Moves a job this server holds to `lane`, due at once for that lane's workers; the attempt is not counted.
    func move(_ job: Job, to lane: Job.Lane, now: Date = Date()) throws {
        _ = try database.write { db in
            try db.execute(
                """
                UPDATE job SET lane = ?, attempts = attempts - 1, runAfter = ?, takenBy = NULL, progress = NULL
                WHERE id = ? AND takenBy = ? AND attempts = ?
                """, [lane.rawValue, now.timeIntervalSince1970, job.id, worker, job.attempts])
        }
    }

    /// Records that a job failed for a reason that will not change (the file is refused, the encode went over its
    /// budget): it stays in the table with `error` and is never taken again (``failed()``, ``failure(of:library:subject:)``).
    func failForGood(_ job: Job, error: String) throws {
        _ = try database.write { db in
            try db.execute(
                "UPDATE job SET attempts = ?, lastError = ?, progress = NULL WHERE id = ?", [maximumAttempts, String(error.prefix(1000)), job.id])
        }
    }

    /// Why the job of `kind` on `subject` failed for good, when it did.
    func failure(of kind: Job.Kind, library: String, subject: String) throws -> String? {
        try database.read { db in
            try db.value(
                "SELECT lastError FROM job WHERE kind = ? AND library = ? AND subject = ? AND attempts >= ?",
                [kind.rawValue, library, subject, maximumAttempts])
        }
    }

    /// The jobs of `kind` that some server is working on now (taken, lease running, progress reported), by
    /// library and subject, with their progress. A job whose server died drops out when its lease runs out.
    func running(_ kind: Job.Kind, now: Date = Date()) throws -> [RunningJob] {
        try database.read { db in
            try db.fetch(
                """
                SELECT library, subject, progress FROM job
                WHERE kind = ? AND progress IS NOT NULL AND takenBy IS NOT NULL AND runAfter > ? AND attempts < ?
                ORDER BY id LIMIT 1000
                """, [kind.rawValue, now.timeIntervalSince1970, maximumAttempts]
            ).map { RunningJob(library: $0[0], subject: $0[1], progress: $0[2]) }
        }
    }

    /// The progress (0 to 1) the jobs of `kind` last reported, by library, while they are in the queue: for a job
    /// done in several runs (a library's faces), between runs too.
    func reportedProgress(_ kind: Job.Kind) throws -> [String: Double] {
        try database.read { db in
            var progress: [String: Double] = [:]
            for row in try db.fetch(
                "SELECT library, progress FROM job WHERE kind = ? AND progress IS NOT NULL AND attempts < ? ORDER BY id LIMIT 1000",
                [kind.rawValue, maximumAttempts])
            {
                progress[row[0]] = row[1]
            }
            return progress
        }
    }

    /// A job being worked on, as ``running(_:now:)`` reports it.
    struct RunningJob: Sendable, Hashable {
        var library: String
        var subject: String
        var progress: Double
    }

    /// Removes a job that is done. One asked for again while it ran (``request(_:library:subject:now:)``) stays,
    /// due again at once with its attempts back, for any server; false then.
    @discardableResult
    func complete(_ job: Job, now: Date = Date()) throws -> Bool {
        try database.write { db in
            if try db.execute("DELETE FROM job WHERE id = ? AND createdAt <= ?", [job.id, job.requested]) > 0 { return true }
            let again = try db.execute(
                "UPDATE job SET attempts = 0, runAfter = ?, takenBy = NULL, lastError = NULL, progress = NULL WHERE id = ?",
                [now.timeIntervalSince1970, job.id])
            return again == 0
        }
    }

    /// Puts a job this server holds back in the queue with its attempts back, due at once for any server, behind the
    /// jobs already due: a run that did part of the work and leaves the rest for the next run. Its progress stays.
    func requeue(_ job: Job, now: Date = Date()) throws {
        _ = try database.write { db in
            try db.execute(
                """
                UPDATE job SET attempts = 0, runAfter = ?, takenBy = NULL, lastError = NULL
                WHERE id = ? AND takenBy = ? AND attempts = ?
                """, [now.timeIntervalSince1970, job.id, worker, job.attempts])
        }
    }

    /// Records a failed attempt: the job is taken again after a delay that grows with each attempt (10 s,
    /// 40 s, 90 s, …), unless it has had all its attempts.
    func fail(_ job: Job, error: String, now: Date = Date()) throws {
        let retry = now.timeIntervalSince1970 + 10 * Double(job.attempts * job.attempts)
        _ = try database.write { db in
            try db.execute("UPDATE job SET runAfter = ?, lastError = ?, progress = NULL WHERE id = ?", [retry, String(error.prefix(1000)), job.id])
        }
    }

    /// How many jobs wait (due or not, taken or not) and how many have failed for good.
    func counts() throws -> (waiting: Int, failed: Int) {
        try database.read { db in
            let waiting: Int = try db.value("SELECT count(*) FROM job WHERE attempts < ?", [maximumAttempts]) ?? 0
            let failed: Int = try db.value("SELECT count(*) FROM job WHERE attempts >= ?", [maximumAttempts]) ?? 0
            return (waiting, failed)
        }
    }

    /// The jobs that failed for good, with their last error.
    func failed() throws -> [(job: Job, error: String)] {
        try database.read { db in
            try db.fetch(
                "SELECT id, kind, library, subject, attempts, lastError FROM job WHERE attempts >= ? ORDER BY id", [maximumAttempts]
            ).compactMap { row in
                guard let kind = Job.Kind(rawValue: row[1]) else { return nil }
                return (Job(id: row[0], kind: kind, library: row[2], subject: row[3], attempts: row[4]), row[5] ?? "")
            }
        }
    }

    /// The lane column, added by the server database's migration `v6`: every job until then was quick.
    static let sqliteLaneColumn = "ALTER TABLE job ADD COLUMN lane TEXT NOT NULL DEFAULT 'quick'"
    /// The same column on PostgreSQL.
    static let postgresLaneColumn = "ALTER TABLE job ADD COLUMN lane TEXT NOT NULL DEFAULT 'quick'"

    /// The progress column, added by the server database's third migration.
    static let sqliteProgressColumn = "ALTER TABLE job ADD COLUMN progress DOUBLE"
    /// The same column on PostgreSQL.
    static let postgresProgressColumn = "ALTER TABLE job ADD COLUMN progress DOUBLE PRECISION"

    /// The table, for the server database's migrations.
    static let sqliteTable = """
        CREATE TABLE job (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          library TEXT NOT NULL,
          subject TEXT NOT NULL,
          createdAt DOUBLE NOT NULL,
          runAfter DOUBLE NOT NULL,
          attempts INTEGER NOT NULL,
          takenBy TEXT,
          lastError TEXT,
          UNIQUE (kind, library, subject)
        );
        CREATE INDEX job_due ON job(runAfter);
        """

    /// The same table on PostgreSQL.
    static let postgresTable = """
        CREATE TABLE job (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          kind TEXT NOT NULL,
          library TEXT NOT NULL,
          subject TEXT NOT NULL,
          createdAt DOUBLE PRECISION NOT NULL,
          runAfter DOUBLE PRECISION NOT NULL,
          attempts INTEGER NOT NULL,
          takenBy TEXT,
          lastError TEXT,
          UNIQUE (kind, library, subject)
        );
        CREATE INDEX job_due ON job(runAfter);
        """
}
