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
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(secret.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
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
        let bytes = string.utf8
        guard bytes.count == prefix.utf8.count + 43, bytes.starts(with: prefix.utf8) else { return false }
        return bytes.dropFirst(prefix.utf8.count).allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
        }
    }
}
