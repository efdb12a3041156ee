import Crypto
import Foundation

/// The position in the change stream of a credential limited to albums: the change-log generation it reached,
/// sealed (ChaCha20-Poly1305, a fresh nonce each time, bound to the credential) so that it says nothing.
///
/// A generation counts every change of the library: as an event id it would tell a limited credential how many
/// changes it did not see (36, then 43 after six changes outside its album). Sealed, every id it receives is
/// new random-looking text, whether anything changed or not, and only the servers of the deployment can open it
/// to resume the stream exactly where it stopped.
struct ChangeCursor {
    let key: SymmetricKey
    /// What the cursor is bound to: the credential's identifier. A cursor opens only for it.
    let credential: String

    private static let prefix = "c"

    /// The cursor of `generation`.
    func seal(_ generation: Int64) throws -> String {
        var bytes = withUnsafeBytes(of: generation.bigEndian) { Data($0) }
        let box = try ChaChaPoly.seal(bytes, using: key, authenticating: Data(credential.utf8))
        bytes = box.combined
        return Self.prefix
            + bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The generation `text` was sealed from, or nil when it is not a cursor made for this credential.
    func open(_ text: String) -> Int64? {
        guard text.hasPrefix(Self.prefix), text.utf8.count <= 80 else { return nil }
        var base64 = text.dropFirst(Self.prefix.count).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let combined = Data(base64Encoded: base64), let box = try? ChaChaPoly.SealedBox(combined: combined),
            let plain = try? ChaChaPoly.open(box, using: key, authenticating: Data(credential.utf8)), plain.count == 8
        else { return nil }
        let generation = plain.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return generation >= 0 ? generation : nil
    }
}
