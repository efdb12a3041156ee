import Crypto
public import Foundation

/// AWS Signature Version 4 for S3 (`AWS4-HMAC-SHA256`): signs a request with an `Authorization` header, or
/// a URL with query parameters (a presigned URL).
///
/// The canonical request follows the S3 rules: the path is encoded once (each byte outside `A–Z a–z 0–9 - . _ ~`
/// and `/` as `%XX`) and never normalised, query keys and values are encoded with `/` too and sorted, and
/// header names are lower-cased and sorted with their values trimmed.
public struct SignatureV4: Sendable {
    /// The payload hash S3 accepts when the body is not hashed (over a trusted link, or for a presigned URL).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The keys that sign.
    public var credentials: S3Credentials
    /// The region the signature is scoped to.
    public var region: String
    /// The service the signature is scoped to: `s3`.
    public var service: String

    /// A signer for `service` in `region`.
    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` when
    /// the credentials have a session token, and `Authorization`. `headers` must already hold `host` and
    /// every other header to sign; all of them are signed.
    public func sign(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String,
        date: Date = Date()
    ) -> [(String, String)] {
        let stamp = Timestamp(date)
        var signed = headers.map { ($0.0.lowercased(), Self.trim($0.1)) }
        var added = [("x-amz-date", stamp.full), ("x-amz-content-sha256", payloadHash)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        signed += added
        signed.sort { $0.0 < $1.0 }
        let names = signed.map(\.0).joined(separator: ";")
        let canonical = [
            method, Self.encodePath(path), Self.canonicalQuery(query),
            signed.map { "\($0.0):\($0.1)\n" }.joined(), names, payloadHash,
        ].joined(separator: "\n")
        let signature = self.signature(canonicalRequest: canonical, stamp: stamp)
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(stamp)), SignedHeaders=\(names), Signature=\(signature)"
        return added + [("Authorization", authorization)]
    }

    /// The query parameters that make a presigned URL valid for `expires` seconds (at most 7 days), to append
    /// to `query`. Only the `host` header is signed, and the payload is not.
    public func presign(
        method: String, host: String, path: String, query: [(String, String)], expires: Int, date: Date = Date()
    ) -> [(String, String)] {
        let stamp = Timestamp(date)
        var parameters =
            query + [
                ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
                ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(stamp))"),
                ("X-Amz-Date", stamp.full),
                ("X-Amz-Expires", String(min(max(expires, 1), 604_800))),
                ("X-Amz-SignedHeaders", "host"),
            ]
        if let token = credentials.sessionToken { parameters.append(("X-Amz-Security-Token", token)) }
        let canonical = [
            method, Self.encodePath(path), Self.canonicalQuery(parameters), "host:\(Self.trim(host))\n", "host",
            Self.unsignedPayload,
        ].joined(separator: "\n")
        return Array(parameters.dropFirst(query.count)) + [("X-Amz-Signature", signature(canonicalRequest: canonical, stamp: stamp))]
    }

    // MARK: The algorithm

    private func scope(_ stamp: Timestamp) -> String {
        "\(stamp.day)/\(region)/\(service)/aws4_request"
    }

    private func signature(canonicalRequest: String, stamp: Timestamp) -> String {
        let toSign = [
            "AWS4-HMAC-SHA256", stamp.full, scope(stamp), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [stamp.day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: key))
    }

    /// The query string as signed and sent: pairs sorted by encoded key, then value.
    public static func canonicalQuery(_ query: [(String, String)]) -> String {
        var pairs: [(key: String, value: String)] = query.map { (encode($0.0, keepingSlash: false), encode($0.1, keepingSlash: false)) }
        pairs.sort { (a, b) -> Bool in a.key == b.key ? a.value < b.value : a.key < b.key }
        return pairs.map { $0.key + "=" + $0.value }.joined(separator: "&")
    }

    /// An object path as signed and sent.
    public static func encodePath(_ path: String) -> String {
        encode(path, keepingSlash: true)
    }

    static func encode(_ text: String, keepingSlash: Bool) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        let hexDigits = Array("0123456789ABCDEF".unicodeScalars)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == 0x2F) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                encoded.unicodeScalars.append(hexDigits[Int(byte & 15)])
            }
        }
        return encoded
    }

    /// `A–Z a–z 0–9 - . _ ~`: the bytes the signature leaves as they are.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }

    static func trim(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A request's date, in the two forms the signature uses.
    struct Timestamp {
        var full: String
        var day: String

        init(_ date: Date) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            func two(_ n: Int?) -> String { String(n ?? 0).leftPadded(to: 2) }
            day = String(c.year ?? 1970).leftPadded(to: 4) + two(c.month) + two(c.day)
            full = day + "T" + two(c.hour) + two(c.minute) + two(c.second) + "Z"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
