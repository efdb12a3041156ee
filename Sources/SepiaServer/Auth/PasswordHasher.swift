import Crypto
import Dispatch
import Foundation
import HummingbirdBcrypt

/// Hashes and checks passwords with bcrypt, off the shared concurrency threads (a cost-12 hash takes a
/// quarter of a second of CPU). bcrypt reads at most 72 bytes, so the password's SHA-256 (base64) is what is
/// hashed: every character of a long passphrase counts.
struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 of the rounds).
    let cost: UInt8

    /// A hash of no one's password, checked when a login names an unknown account.
    private let decoy: String

    init(cost: Int) {
        self.cost = UInt8(min(max(cost, 10), 16))
        decoy = Bcrypt.hash(Secret.generate(), cost: self.cost)
    }

    /// The bcrypt hash of `password`.
    func hash(_ password: String) async -> String {
        let cost = self.cost
        let input = Self.prehash(password)
        return await Self.offload { Bcrypt.hash(input, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    func verify(_ password: String, hash: String) async -> Bool {
        let input = Self.prehash(password)
        return await Self.offload { Bcrypt.verify(input, hash: hash) }
    }

    private static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// Checks a password against a fixed hash, so that a login for an unknown account takes as long as one
    /// for a known account.
    func verifyNothing(_ password: String) async {
        _ = await verify(password, hash: decoy)
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
