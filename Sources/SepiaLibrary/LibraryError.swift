import Foundation
public import SepiaCodecs

/// Why a library operation failed. Every case's description names what failed and what to do.
public struct LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for code that branches on it.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The library folder cannot be opened or created.
        case cannotOpen
        /// The library was written by a newer version of Sepia.
        case newerSchema
        /// No asset, album or adjustment has the given identifier.
        case notFound
        /// A change request is invalid (empty title, index out of range, smart album edited, …).
        case invalidRequest
        /// The file is already in the library (same SHA-256).
        case duplicate
        /// The file is not an image Sepia can decode, or it is damaged.
        case unreadableImage
        /// A content-editing output is unusable (missing render, not a JPEG, not upright, unknown asset).
        case invalidEditingOutput
        /// The asset's adjustment has a format this version cannot read.
        case unsupportedAdjustment
        /// Reading or writing a file of the library failed.
        case fileSystem
        /// The database failed (I/O error, corruption, busy beyond the timeout).
        case database
        /// Object storage failed or could not be reached; trying again later may succeed.
        case storageUnavailable
        /// An object of a fetch result was deleted after the result was made.
        case objectDeleted
        /// The asset is in Recently Deleted: it can be recovered or deleted for good, and nothing else.
        case inRecentlyDeleted
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence saying what failed and, when possible, what to do.
    public var reason: String
    /// The file or identifier concerned, if any.
    public var subject: String?

    /// A related object: for ``Code/duplicate``, the asset that already has the file.
    public var relatedID: String?

    /// For ``Code/unreadableImage``, what the decoder found wrong, when a decoder refused the file.
    public var codecCode: CodecError.Code?

    /// A file a commit needed was removed by a concurrent clean-up: write it again and retry.
    var vanishedFile: StoredFile?

    /// Creates an error.
    public init(_ code: Code, _ reason: String, subject: String? = nil) {
        self.code = code
        self.reason = reason
        self.subject = subject
    }

    /// The subject and the reason: `IMG_0042.jpg: the file is already in the library`.
    public var description: String {
        if let subject { return "\(subject): \(reason)" }
        return reason
    }

    static func notFound(asset id: String) -> LibraryError {
        LibraryError(.notFound, "no asset has this identifier; `sepia list` shows the library's assets", subject: id)
    }

    static func duplicate(of existing: Asset, file: String) -> LibraryError {
        var error =
            existing.isRecentlyDeleted
            ? LibraryError(
                .duplicate, "the file is in Recently Deleted as asset \(existing.id); recover it instead of adding it again", subject: file)
            : LibraryError(.duplicate, "the file is already in the library as asset \(existing.id)", subject: file)
        error.relatedID = existing.id
        return error
    }

    static func inRecentlyDeleted(asset id: String) -> LibraryError {
        LibraryError(
            .inRecentlyDeleted, "the photo is in Recently Deleted; recover it first (`sepia recently-deleted recover`)", subject: id)
    }

    static func notFound(album id: String) -> LibraryError {
        LibraryError(.notFound, "no album has this identifier or title; `sepia albums` lists them", subject: id)
    }

    static func unreadable(_ error: CodecError, file: String) -> LibraryError {
        // The name the caller gives (an upload's file name), never the path the decoder read: a server's temporary file
        // is nobody's business.
        var unreadable = LibraryError(.unreadableImage, error.reason, subject: file)
        unreadable.codecCode = error.code
        return unreadable
    }

    static func database(_ error: any Error) -> LibraryError {
        LibraryError(.database, "the library database failed: \(error)")
    }

    static func fileSystem(_ what: String, path: String, errno code: Int32) -> LibraryError {
        LibraryError(.fileSystem, "\(what): \(String(cString: strerror(code)))", subject: path)
    }
}
