import Foundation
import SepiaImage
import SepiaLibrary
import SepiaObjectStore
import Synchronization

/// Opens each user's library once and keeps it open: the owner's is the server's `--library`, invited users'
/// are `users/<id>/library` in the data folder. Every library renders on one shared render context.
final class LibraryRegistry: Sendable {
    let configuration: ServerConfiguration
    let renderContext: RenderContext
    private let open = Mutex<[String: UserLibrary]>([:])

    init(configuration: ServerConfiguration, renderContext: RenderContext) {
        self.configuration = configuration
        self.renderContext = renderContext
    }

    /// The folder of `user`'s library.
    func path(for user: UserRecord) -> String {
        user.libraryPath.isEmpty ? configuration.libraryPath : configuration.dataPath + "/" + user.libraryPath
    }

    /// Where `user`'s library keeps its files in object storage, under the server's prefix.
    static func storagePrefix(for user: UserRecord) -> String {
        "libraries/" + (user.libraryPath.isEmpty ? "owner" : user.id) + "/"
    }

    /// The PostgreSQL schema of `user`'s library, beside the accounts' schema `base`.
    static func schema(for user: UserRecord, base: String) -> String {
        base + (user.libraryPath.isEmpty ? "_owner" : "_u_" + user.id.lowercased().filter { $0.isHexDigit })
    }

    /// Every library open now.
    var openLibraries: [UserLibrary] {
        open.withLock { Array($0.values) }
    }

    /// The data-folder-relative library folder of a new, invited user.
    static func relativePath(forUserID id: String) -> String {
        "users/" + id + "/library"
    }

    /// `user`'s library, opened on first use.
    func library(for user: UserRecord) throws -> UserLibrary {
        let path = self.path(for: user)
        if let library = open.withLock({ $0[path] }) { return library }
        var libraryConfiguration = configuration.libraryConfiguration
        libraryConfiguration.renderContext = renderContext
        if let bucket = configuration.objectStorage {
            libraryConfiguration.storage = .objectStorage(bucket.appending(Self.storagePrefix(for: user)))
        }
        libraryConfiguration.storagePathAdded = Self.storagePrefix(for: user)
        if let database = configuration.database {
            libraryConfiguration.database = .postgreSQL(try database.schema(Self.schema(for: user, base: database.schema)))
        }
        let library = try PhotoLibrary.open(at: path, configuration: libraryConfiguration)
        let opened = UserLibrary(library: library, previewCacheBytes: 96 << 20)
        return open.withLock { libraries in
            if let existing = libraries[path] {
                opened.close()
                return existing
            }
            libraries[path] = opened
            return opened
        }
    }

    /// `user`'s library if it is open already; never opens one.
    func openLibrary(for user: UserRecord) -> UserLibrary? {
        let path = self.path(for: user)
        return open.withLock { $0[path] }
    }

    /// Opens the owner's library now, so that a problem with it stops the server at start.
    func openOwnerLibrary() throws -> UserLibrary {
        let owner = UserRecord(id: "", username: "", passwordHash: "", isOwner: true, libraryPath: "", createdAt: Date())
        return try library(for: owner)
    }

    /// Closes a user's library (the user was removed).
    func close(for user: UserRecord) {
        let path = self.path(for: user)
        let library = open.withLock { $0.removeValue(forKey: path) }
        library?.close()
    }

    /// Closes every library.
    func closeAll() {
        let libraries = open.withLock { libraries in
            defer { libraries.removeAll() }
            return Array(libraries.values)
        }
        for library in libraries { library.close() }
    }
}
