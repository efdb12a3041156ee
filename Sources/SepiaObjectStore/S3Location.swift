public import Foundation

/// Where objects live: an endpoint, a region, a bucket and a key prefix, written as
/// `s3://BUCKET[/PREFIX]?endpoint=URL&region=REGION[&addressing=path|virtual]`.
///
/// Without `endpoint` the location is Amazon S3 in `region` (`https://s3.REGION.amazonaws.com`). Requests use
/// path-style addressing (`ENDPOINT/BUCKET/KEY`) unless `addressing=virtual` (`BUCKET.HOST/KEY`); path style
/// works with every S3-compatible store (MinIO, Ceph, Garage, OpenStack Swift's `s3api`).
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// How the bucket is named in requests.
    public enum Addressing: String, Sendable, Hashable {
        case path
        case virtual
    }

    /// The scheme, host and port requests go to (no path).
    public var endpoint: URL
    /// The region signatures are scoped to (`us-east-1` for most stores that are not Amazon S3).
    public var region: String
    /// The bucket name.
    public var bucket: String
    /// Prepended to every key: several deployments may share one bucket. Empty, or ending with `/`.
    public var prefix: String
    /// Path-style or virtual-host-style requests.
    public var addressing: Addressing

    /// A location from its parts.
    public init(endpoint: URL, region: String, bucket: String, prefix: String = "", addressing: Addressing = .path) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.addressing = addressing
    }

    /// Parses an `s3://` location.
    public init(parsing text: String) throws(S3Error) {
        func invalid(_ reason: String) -> S3Error {
            S3Error(
                .configuration, "\(reason); write s3://BUCKET[/PREFIX]?endpoint=URL&region=REGION", subject: text)
        }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "s3" else {
            throw invalid("not an s3:// location")
        }
        guard let bucket = components.host, !bucket.isEmpty else { throw invalid("the bucket is missing") }
        guard Self.isValidBucketName(bucket) else {
            throw invalid("\"\(bucket)\" is not a valid bucket name (3–63 lower-case letters, digits, dots and hyphens)")
        }
        var items: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["endpoint", "region", "addressing"].contains(item.name) else {
                throw invalid("unknown setting \"\(item.name)\" (known: endpoint, region, addressing)")
            }
            items[item.name] = item.value ?? ""
        }
        let region = items["region"] ?? "us-east-1"
        guard !region.isEmpty, region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw invalid("\"\(region)\" is not a region name")
        }
        let endpoint: URL
        if let given = items["endpoint"] {
            guard let url = URL(string: given), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
            else { throw invalid("the endpoint must be an http:// or https:// URL with no path, such as https://s3.example.com:9000") }
            endpoint = URL(string: given.hasSuffix("/") ? String(given.dropLast()) : given)!
        } else {
            endpoint = URL(string: "https://s3.\(region).amazonaws.com")!
        }
        guard let addressing = Addressing(rawValue: items["addressing"] ?? "path") else {
            throw invalid("addressing is path or virtual")
        }
        var prefix = components.path
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        self.init(endpoint: endpoint, region: region, bucket: bucket, prefix: prefix, addressing: addressing)
    }

    /// The `Host` header requests carry.
    var host: String {
        let name = endpoint.host ?? ""
        let base = endpoint.port.map { "\(name):\($0)" } ?? name
        return addressing == .virtual ? "\(bucket).\(base)" : base
    }

    /// The request path of `key` (prefix included), or of the bucket itself when `key` is nil.
    func path(key: String?) -> String {
        let object = key.map { prefix + $0 }
        switch addressing {
        case .path: return "/" + bucket + (object.map { "/" + $0 } ?? "")
        case .virtual: return "/" + (object ?? "")
        }
    }

    /// The URL of a request.
    func url(key: String?, query: String) -> String {
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        return "\(scheme)://\(host)\(SignatureV4.encodePath(path(key: key)))" + (query.isEmpty ? "" : "?" + query)
    }

    /// The bucket and prefix, without the endpoint (which may differ between machines that reach the same
    /// store): `s3://BUCKET/PREFIX`.
    public var identity: String {
        "s3://\(bucket)/\(prefix)"
    }

    /// The same bucket with `path` appended to the prefix.
    public func appending(_ path: String) -> S3Location {
        S3Location(endpoint: endpoint, region: region, bucket: bucket, prefix: prefix + path, addressing: addressing)
    }

    /// The location as an `s3://` URL (without credentials, which never belong in one).
    public var description: String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint.absoluteString)&region=\(region)"
            + (addressing == .virtual ? "&addressing=virtual" : "")
    }

    static func isValidBucketName(_ name: String) -> Bool {
        (3...63).contains(name.count)
            && name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "." || $0 == "-" }
            && name.first.map { $0.isLetter || $0.isNumber } == true && name.last.map { $0.isLetter || $0.isNumber } == true
    }
}
