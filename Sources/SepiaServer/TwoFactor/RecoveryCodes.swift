/// The ten one-time recovery codes given when two-factor sign-in is turned on: each opens the account once in place
/// of the second factor (a lost phone, a lost key). Ten characters of Crockford's base32 (digits and lowercase
/// letters without i, l, o and u; an o typed is read as 0, an i or l as 1), 50 bits each, shown as `xxxxx-xxxxx`.
/// The database keeps their SHA-256 only (`Secret.hash`): they are random enough that a slow hash adds nothing.
enum RecoveryCodes {
    static let count = 10
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// Ten new codes, as shown to the user.
    static func generate() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let characters = (0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            return String(decoding: characters[0..<5], as: UTF8.self) + "-" + String(decoding: characters[5...], as: UTF8.self)
        }
    }

    /// What is stored of a code, whether it was typed with or without its hyphen, in capitals or spaced out; nil if
    /// it cannot be a code (so that nothing is looked up).
    static func storedForm(of typed: String) -> String? {
        let letters = String(
            typed.lowercased().compactMap { character -> Character? in
                switch character {
                case "-", " ", "\t": nil
                case "o": "0"
                case "i", "l": "1"
                default: character
                }
            })
        guard letters.count == 10, letters.utf8.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return Secret.hash(letters)
    }
}
