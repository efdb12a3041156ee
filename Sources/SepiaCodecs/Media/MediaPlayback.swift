/// How an item's motion reaches a player, as its opener judged it when the file was opened.
public enum MediaPlayback: String, Sendable, Hashable, Codable {
    /// Nothing plays: a still.
    case none
    /// The original plays in browsers as it is.
    case asIs
    /// Browsers cannot play the original: a playable version is made from it.
    case needsPlayableVersion
}
