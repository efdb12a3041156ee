import Foundation
import SepiaLibrary

/// Two-factor sign-in's records: an account's authenticator secret, its one-time recovery codes, and the sign-ins
/// that passed the password and wait for the second factor.
extension AccountStore {
    /// `secondFactor`: the account's TOTP secret (base32), unconfirmed until a first code proves the app has it; the
    /// last step a code was accepted for (a code is good once). `recoveryCode`: the SHA-256 of each code, used or not.
    /// `signInChallenge`: a password that was right, for a few minutes, by the SHA-256 of the secret the client holds.
    static let twoFactorSQLite = """
        CREATE TABLE secondFactor (
          userID TEXT PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
          totpSecret TEXT NOT NULL,
          lastStep INTEGER,
          createdAt DOUBLE NOT NULL,
          confirmedAt DOUBLE
        ) WITHOUT ROWID;
        CREATE TABLE recoveryCode (
          codeHash TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          usedAt DOUBLE
        ) WITHOUT ROWID;
        CREATE INDEX recoveryCode_byUser ON recoveryCode(userID);
        CREATE TABLE signInChallenge (
          tokenHash TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          expiresAt DOUBLE NOT NULL
        ) WITHOUT ROWID;
        """

    /// The same on PostgreSQL.
    static let twoFactorPostgreSQL = """
        CREATE TABLE secondFactor (
          userID TEXT PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
          totpSecret TEXT NOT NULL,
          lastStep BIGINT,
          createdAt DOUBLE PRECISION NOT NULL,
          confirmedAt DOUBLE PRECISION
        );
        CREATE TABLE recoveryCode (
          codeHash TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
          usedAt DOUBLE PRECISION
        );
        CREATE INDEX recoveryCode_byUser ON recoveryCode(userID);
        CREATE TABLE signInChallenge (
          tokenHash TEXT PRIMARY KEY,
          userID TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
          expiresAt DOUBLE PRECISION NOT NULL
        );
        """

    /// An account's authenticator, as stored.
    struct SecondFactorRecord: Sendable {
        var totp: OneTimePassword
        var lastStep: Int64?
        var confirmed: Bool
    }

    /// The account's authenticator, confirmed or waiting for its first code.
    func secondFactor(userID: String) throws -> SecondFactorRecord? {
        try read { db in
            guard let row = try db.fetchOne("SELECT totpSecret, lastStep, confirmedAt FROM secondFactor WHERE userID = ?", [userID]),
                let secret = Base32.decode(row[0] as String)
            else { return nil }
            let confirmedAt: Double? = row[2]
            return SecondFactorRecord(totp: OneTimePassword(secret: secret), lastStep: row[1], confirmed: confirmedAt != nil)
        }
    }

    /// Whether the account signs in with a second factor.
    func hasSecondFactor(userID: String) throws -> Bool {
        try read { db in
            try db.value("SELECT 1 FROM secondFactor WHERE userID = ? AND confirmedAt IS NOT NULL", [userID], as: Int.self) != nil
        }
    }

    /// The accounts that sign in with a second factor.
    func usersWithSecondFactor() throws -> Set<String> {
        try read { db in Set(try db.values("SELECT userID FROM secondFactor WHERE confirmedAt IS NOT NULL", as: String.self)) }
    }

    /// Starts setting up an authenticator: a new secret, unconfirmed; refused while one is confirmed (turning it off
    /// comes first).
    func beginSecondFactor(userID: String) throws -> OneTimePassword {
        let totp = OneTimePassword(secret: OneTimePassword.newSecret())
        try write { db in
            if try db.value("SELECT 1 FROM secondFactor WHERE userID = ? AND confirmedAt IS NOT NULL", [userID], as: Int.self) != nil {
                throw APIError.conflict("two-factor sign-in is on already; turn it off first to set up another authenticator")
            }
            try db.execute("DELETE FROM secondFactor WHERE userID = ?", [userID])
            try db.execute(
                "INSERT INTO secondFactor (userID, totpSecret, createdAt) VALUES (?, ?, ?)",
                [userID, Base32.encode(totp.secret), db.dialect.date(Date())])
        }
        return totp
    }

    /// Confirms the authenticator being set up with the step of its first good code, and stores the hashes of the
    /// recovery codes (replacing any earlier ones). False if there is none being set up.
    func confirmSecondFactor(userID: String, step: Int64, recoveryCodeHashes: [String]) throws -> Bool {
        try write { db in
            let changed = try db.execute(
                "UPDATE secondFactor SET confirmedAt = ?, lastStep = ? WHERE userID = ? AND confirmedAt IS NULL",
                [db.dialect.date(Date()), step, userID])
            guard changed == 1 else { return false }
            try replaceRecoveryCodes(userID: userID, hashes: recoveryCodeHashes, in: db)
            return true
        }
    }

    /// Uses the step of a good code: true if no code of this step or a later one was used before (two requests with the
    /// same code cannot both pass: the update is conditional).
    func useSecondFactorStep(userID: String, step: Int64) throws -> Bool {
        try write { db in
            try db.execute(
                "UPDATE secondFactor SET lastStep = ? WHERE userID = ? AND confirmedAt IS NOT NULL AND (lastStep IS NULL OR lastStep < ?)",
                [step, userID, step]) == 1
        }
    }

    /// Uses a recovery code: true if it is one of the account's and was not used before.
    func useRecoveryCode(userID: String, hash: String) throws -> Bool {
        try write { db in
            try db.execute(
                "UPDATE recoveryCode SET usedAt = ? WHERE codeHash = ? AND userID = ? AND usedAt IS NULL",
                [db.dialect.date(Date()), hash, userID]) == 1
        }
    }

    /// How many of the account's recovery codes are left.
    func recoveryCodesLeft(userID: String) throws -> Int {
        try read { db in try db.value("SELECT count(*) FROM recoveryCode WHERE userID = ? AND usedAt IS NULL", [userID]) ?? 0 }
    }

    /// Ten new recovery codes in place of the old ones.
    func replaceRecoveryCodes(userID: String, hashes: [String]) throws {
        try write { db in try replaceRecoveryCodes(userID: userID, hashes: hashes, in: db) }
    }

    private func replaceRecoveryCodes(userID: String, hashes: [String], in db: any SQLSession) throws {
        try db.execute("DELETE FROM recoveryCode WHERE userID = ?", [userID])
        for hash in hashes {
            try db.execute("INSERT INTO recoveryCode (codeHash, userID) VALUES (?, ?)", [hash, userID])
        }
    }

    /// Turns two-factor sign-in off: the authenticator, its recovery codes and the sign-ins waiting for it go.
    func removeSecondFactor(userID: String) throws {
        try write { db in
            try db.execute("DELETE FROM secondFactor WHERE userID = ?", [userID])
            try db.execute("DELETE FROM recoveryCode WHERE userID = ?", [userID])
            try db.execute("DELETE FROM signInChallenge WHERE userID = ?", [userID])
        }
    }

    // MARK: - Sign-ins waiting for the second factor

    /// A sign-in whose password was right: the secret the client sends with the second factor, good for `lifetime`.
    func createSignInChallenge(userID: String, lifetime: TimeInterval) throws -> String {
        let secret = Secret.generate()
        let now = Date()
        try write { db in
            try db.execute("DELETE FROM signInChallenge WHERE expiresAt < ?", [db.dialect.date(now)])
            try db.execute(
                "INSERT INTO signInChallenge (tokenHash, userID, expiresAt) VALUES (?, ?, ?)",
                [Secret.hash(secret), userID, db.dialect.date(now.addingTimeInterval(lifetime))])
            // A password repeated in a loop keeps only the newest few challenges, not a row per request.
            try db.execute(
                """
                DELETE FROM signInChallenge WHERE userID = ? AND tokenHash NOT IN
                  (SELECT tokenHash FROM signInChallenge WHERE userID = ? ORDER BY expiresAt DESC LIMIT \(Self.maximumChallengesPerAccount))
                """, [userID, userID])
        }
        return secret
    }

    /// How many sign-ins of one account may wait for their second factor at once; the oldest end first.
    static let maximumChallengesPerAccount = 10

    /// The account a live challenge is for.
    func signInChallenge(secret: String) throws -> UserRecord? {
        guard Secret.isWellFormed(secret) else { return nil }
        return try read { db in
            guard
                let userID = try db.value(
                    "SELECT userID FROM signInChallenge WHERE tokenHash = ? AND expiresAt > ?", [Secret.hash(secret), db.dialect.date(Date())],
                    as: String.self)
            else { return nil }
            return try db.fetchOne("SELECT \(UserRecord.columns) FROM \"user\" WHERE id = ?", [userID]).map(UserRecord.init)
        }
    }

    /// Ends a challenge (the sign-in completed).
    func deleteSignInChallenge(secret: String) throws {
        try write { db in _ = try db.execute("DELETE FROM signInChallenge WHERE tokenHash = ?", [Secret.hash(secret)]) }
    }
}
