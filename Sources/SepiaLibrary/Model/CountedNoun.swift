/// A noun in each plural form of the language, chosen by the count as CLDR's plural rules choose (English has
/// "one" and "other"; a language with more forms — "few", "many" — adds them with its rule).
struct CountedNoun: Sendable, Hashable {
    /// The form for exactly one.
    var one: String
    /// The form for any other count.
    var other: String

    /// "1 photo", "12 photos".
    func counting(_ count: Int) -> String {
        "\(count) \(count == 1 ? one : other)"
    }
}
