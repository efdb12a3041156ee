/// Sepia's version, in one place: what `sepia --version` prints and what the server's `/health` reports.
public enum SepiaVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.4.0"
}
