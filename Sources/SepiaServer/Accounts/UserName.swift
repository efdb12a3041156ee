import Foundation

/// A user name, and the one form in which an account is created, looked up and throttled.
///
/// A name has 1 to 64 ASCII letters, digits, dots, dashes and underscores (every account was made under that
/// rule); it is stored as typed and is unique regardless of case, so its ``canonical`` form is the name in
/// lowercase. What a sign-in gives as a name is read with ``signIn(_:)``: text that no name can be (a NUL, a
/// control or format character, a letter outside ASCII) never reaches the database, where a C string would
/// end at the NUL and find another account, and it is counted by the sign-in throttle against the account it
/// imitates: the name it starts with.
struct UserName: Hashable, Sendable {
    /// The most characters a name has.
    static let maximumLength = 64

    /// The name as typed, without surrounding spaces: what the account shows.
    let text: String
    /// The form names are compared in: ``text`` in lowercase.
    var canonical: String { text.lowercased() }

    /// Checks the name of a new account.
    /// - Throws: ``APIError`` 422 naming the first character a name cannot have, or the length.
    init(creating typed: String) throws(APIError) {
        let name = typed.trimmingCharacters(in: .whitespaces)
        if let bad = name.unicodeScalars.first(where: { !Self.isAllowed($0) }) {
            throw APIError.unprocessable(
                "the name contains \(Self.describe(bad)), which a name cannot have; a name has 1 to 64 ASCII letters, digits, dots, dashes or underscores"
            )
        }
        guard (1...Self.maximumLength).contains(name.unicodeScalars.count) else {
            throw APIError.unprocessable("a name has 1 to 64 letters, digits, dots, dashes or underscores; this one has \(name.unicodeScalars.count)")
        }
        text = name
    }

    private init(valid text: String) { self.text = text }

    /// What a sign-in's name is.
    enum SignIn: Equatable {
        /// A name an account can have.
        case valid(UserName)
        /// Text no account can have: the sign-in fails without a look-up, and counts against `throttleKey`.
        case impossible(throttleKey: String)

        /// The canonical name the sign-in throttle counts the attempt against.
        var throttleKey: String {
            switch self {
            case .valid(let name): name.canonical
            case .impossible(let key): key
            }
        }
    }

    /// Reads the name a sign-in gives. A name that cannot exist counts against the canonical form of what it
    /// begins with, up to the first character a name cannot have: `victim\u{0}x`, `victim\u{202E}` and `victim x`
    /// are throttled as `victim`, so that no spelling of a name escapes its account's limit.
    static func signIn(_ typed: String) -> SignIn {
        let name = typed.trimmingCharacters(in: .whitespaces)
        let scalars = name.unicodeScalars
        let valid = scalars.prefix { isAllowed($0) }
        let key = String(String.UnicodeScalarView(valid.prefix(maximumLength))).lowercased()
        guard valid.count == scalars.count, (1...maximumLength).contains(scalars.count) else { return .impossible(throttleKey: key) }
        return .valid(UserName(valid: name))
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": true
        default: false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(format: "U+%04X", scalar.value)
        if scalar.properties.generalCategory == .control { return "\(code) (a control character)" }
        if scalar.properties.generalCategory == .format { return "\(code) (an invisible formatting character)" }
        if scalar == " " { return "a space" }
        return "'\(Character(scalar))' (\(code))"
    }
}
