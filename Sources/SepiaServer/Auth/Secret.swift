import Crypto
import Foundation

/// Random secrets (session cookies, API tokens, setup and share links) and how they are stored.
enum Secret {
    /// 32 random bytes from the system's secure generator, base64url without padding (43 characters), after
    /// `prefix`.
    static func generate(prefix: String = "") -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix
            + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 of a secret, as lowercase hex: what the database stores, so that a copy of it opens
    /// nothing.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares two strings in time independent of where they differ.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Whether `string` looks like a secret this server makes (length and alphabet), before any look-up.
    static func isWellFormed(_ string: String, prefix: String = "") -> Bool {
        guard string.hasPrefix(prefix) else { return false }
        let body = string.dropFirst(prefix.count)
        return body.count == 43 && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
