import Crypto
import Foundation
import SepiaLibrary

/// The way back from a change to people, handed to the client that made it: the library's ``PeopleUndo`` as
/// JSON, base64url, then `.` and its HMAC-SHA256 under the deployment's key (``AccountStore/peopleUndoKey()``),
/// bound to the library it was made in. The server keeps nothing: a token opens only if this deployment made it
/// for this library, unchanged, so a client can neither forge a change to people nor apply one made in another
/// user's library.
///
/// ```
/// eyJmYWNlcyI6W3siZmFjZSI6…In1dfQ.3q2-7wAAAA…
/// ```
struct PeopleUndoToken {
    let key: SymmetricKey
    /// The library the token is bound to: its owner's user identifier.
    let library: String

    /// The longest token accepted, in characters (a merge of people with thousands of faces).
    static let maximumLength = 900_000

    /// The token of `undo`.
    func seal(_ undo: PeopleUndo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = Self.base64URL(try encoder.encode(undo))
        return payload + "." + Self.base64URL(Data(signature(of: payload)))
    }

    /// The change `token` undoes, or nil when this deployment did not make it for this library (or it was
    /// changed since).
    func open(_ token: String) -> PeopleUndo? {
        guard token.utf8.count <= Self.maximumLength else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Self.data(base64URL: parts[1]) else { return nil }
        let payload = String(parts[0])
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message(payload), using: key) else { return nil }
        guard let json = Self.data(base64URL: parts[0]) else { return nil }
        return try? JSONDecoder().decode(PeopleUndo.self, from: json)
    }

    private func message(_ payload: String) -> Data {
        Data(("sepia-people-undo\u{0}" + library + "\u{0}" + payload).utf8)
    }

    private func signature(of payload: String) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: message(payload), using: key)
    }

    static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        guard
            text.utf8.allSatisfy({ c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
