public import Foundation

/// What the store says of an object.
public struct S3ObjectInfo: Sendable, Hashable {
    /// The key, relative to the location's prefix.
    public var key: String
    /// The whole object's size in bytes.
    public var size: Int
    /// The entity tag, unquoted: the MD5 of an object stored in one request, `MD5-N` of a multipart one.
    public var etag: String
    /// When the object was stored.
    public var lastModified: Date?
    /// The `Content-Type` it was stored with.
    public var contentType: String?
    /// User metadata (`x-amz-meta-*`), names lower-cased and without the prefix.
    public var metadata: [String: String] = [:]

    /// A description from its parts.
    public init(
        key: String, size: Int, etag: String, lastModified: Date? = nil, contentType: String? = nil, metadata: [String: String] = [:]
    ) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.metadata = metadata
    }
}

/// An object's bytes, or the part of them that was asked for, and what the store says of it.
public struct S3Object: Sendable {
    /// What the store says of the object.
    public var info: S3ObjectInfo
    /// The bytes read.
    public var bytes: Data
}

/// The answer to a read.
public enum S3Read: Sendable {
    /// The whole object.
    case whole(S3Object)
    /// The bytes of `range` (offsets into the whole object of `totalSize` bytes).
    case partial(S3Object, range: Range<Int>, totalSize: Int)
    /// The object still has the ETag the reader has.
    case notModified(etag: String)
}

/// A byte range of an object, as HTTP's `Range` header writes it.
public enum S3ByteRange: Sendable, Hashable {
    /// From an offset to the end.
    case from(Int)
    /// The bytes at these offsets.
    case bytes(Range<Int>)
    /// The last `n` bytes.
    case suffix(Int)

    var headerValue: String {
        switch self {
        case .from(let start): "bytes=\(start)-"
        case .bytes(let range): "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
        case .suffix(let count): "bytes=-\(count)"
        }
    }

    /// Reads `Content-Range: bytes FIRST-LAST/TOTAL`.
    static func parseContentRange(_ value: String) -> (range: Range<Int>, total: Int)? {
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let total = Int(parts[1]) else { return nil }
        let ends = parts[0].split(separator: "-")
        guard ends.count == 2, let first = Int(ends[0]), let last = Int(ends[1]), first <= last else { return nil }
        return (first..<(last + 1), total)
    }
}

/// One page of a listing.
public struct S3Listing: Sendable {
    /// The objects of this page, in key order.
    public var objects: [S3ObjectInfo]
    /// Where the next page starts, or nil when this is the last.
    public var continuation: String?
}
