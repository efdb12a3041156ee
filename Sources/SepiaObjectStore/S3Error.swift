import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to object storage: which operation on which object, what the store said, and
/// whether trying again may help.
public struct S3Error: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable {
        /// The location or the credentials are not usable as given.
        case configuration
        /// The store could not be reached, or the connection failed part-way.
        case unreachable
        /// The store refused the credentials or the signature (403).
        case accessDenied
        /// The object or the bucket does not exist (404).
        case notFound
        /// A condition (`If-Match`, `If-None-Match` on a write) did not hold (412).
        case preconditionFailed
        /// The store answered with an error status not covered above.
        case failed
        /// The store's answer could not be understood, or the data it returned is not what was stored.
        case invalidResponse
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What failed, in words.
    public var reason: String
    /// The bucket or object concerned.
    public var subject: String?
    /// The HTTP status, when the store answered.
    public var status: Int?
    /// The store's own error code (`NoSuchKey`, `SignatureDoesNotMatch`, …), when it sent one.
    public var code: String?
    /// Whether the store's address refused the connection: nothing listens there (the store is stopped), so
    /// trying again at once would only be refused again.
    public var isRefusedConnection = false

    /// An error of `kind`, with the reason in words and what it concerns.
    public init(_ kind: Kind, _ reason: String, subject: String? = nil, status: Int? = nil, code: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.subject = subject
        self.status = status
        self.code = code
    }

    /// Whether the same request may succeed if sent again: the store was unreachable, overloaded or failed
    /// internally.
    public var isTransient: Bool {
        switch kind {
        case .unreachable: true
        case .failed: status.map { $0 >= 500 || $0 == 429 } ?? false
        default: false
        }
    }

    /// Whether a connection failure was a refusal (`ECONNREFUSED`), for every address tried.
    static func isRefusedConnection(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError:
            return error.errnoCode == ECONNREFUSED
        case let error as NIOConnectionError:
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { isRefusedConnection($0.error) }
        default:
            return false
        }
    }

    /// The error as one sentence, with what to check when that helps.
    public var description: String {
        var text = "object storage: \(reason)"
        if let subject { text += " (\(subject))" }
        if let status { text += ": HTTP \(status)" + (code.map { " \($0)" } ?? "") }
        switch kind {
        case .accessDenied: text += "; check the access key and the secret"
        case .unreachable: text += "; check the endpoint and that the store is running"
        default: break
        }
        return text
    }
}
