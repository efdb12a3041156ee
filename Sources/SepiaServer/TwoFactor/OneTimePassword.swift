import Crypto
import Foundation

/// Time-based one-time passwords (TOTP, RFC 6238): the six digits an authenticator app shows, from a secret shared
/// once through a QR code (`provisioningURI`). HMAC-SHA-1 over the number of 30-second steps since 1970, as every
/// authenticator app computes it (RFC 4226's dynamic truncation).
struct OneTimePassword: Sendable {
    /// The shared secret: 20 random bytes (RFC 4226 recommends 160 bits).
    let secret: [UInt8]
    /// Digits in a code.
    let digits: Int
    /// Seconds a code stands for.
    let period: Int64

    init(secret: [UInt8], digits: Int = 6, period: Int64 = 30) {
        precondition((6...8).contains(digits) && period > 0)
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// A new random secret, from the system's secure generator.
    static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The step `date` falls in.
    func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of one step, zero-padded to `digits`.
    func code(forStep step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let number = String(binary % modulus)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// The code shown at `date`.
    func code(at date: Date) -> String { code(forStep: step(at: date)) }

    /// The step whose code `candidate` is, if it is one of the steps within `window` of `date`'s and later than
    /// `lastUsedStep` (a code is good once: a code seen over a shoulder or replayed from a log opens nothing);
    /// nil otherwise. Spaces in what was typed are ignored; every step is compared, in constant time each.
    func verify(_ candidate: String, at date: Date, window: Int64 = 1, after lastUsedStep: Int64? = nil) -> Int64? {
        let typed = candidate.filter { !$0.isWhitespace }
        guard typed.count == digits, typed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let now = step(at: date)
        var matched: Int64?
        for step in (now - window)...(now + window) where Secret.constantTimeEquals(code(forStep: step), typed) {
            if lastUsedStep.map({ step > $0 }) ?? true { matched = step }
        }
        return matched
    }

    /// The `otpauth://` URI an authenticator app scans (Google Authenticator's key URI format): the issuer and the
    /// account name label the entry.
    func provisioningURI(account: String, issuer: String) -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/" + issuer + ":" + account
        components.queryItems = [
            URLQueryItem(name: "secret", value: Base32.encode(secret)),
            URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: "SHA1"),
            URLQueryItem(name: "digits", value: String(digits)),
            URLQueryItem(name: "period", value: String(period)),
        ]
        return components.string ?? ""
    }
}
