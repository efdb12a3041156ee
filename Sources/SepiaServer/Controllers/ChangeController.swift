import Crypto
import Foundation
import Hummingbird
import NIOCore
import SepiaLibrary
import ServiceLifecycle

/// The live change stream: `GET /api/v1/changes`, Server-Sent Events read from the library's change log, so
/// commits by any process show up (this server, `sepia import`, another server on the same library); and, as
/// `progress` events, how far the playable versions of the library's videos being made on any server have come,
/// and how far the library's faces are found.
struct ChangeController {
    let services: ServerServices

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.group().add(middleware: PermissionMiddleware(permission: .read))
            .get(use: stream)
        return routes
    }

    /// What one event reports. Assets moved to Recently Deleted are `trashed` and those brought back `recovered`,
    /// for a credential that sees Recently Deleted; for any other they are `deleted` and `inserted`, as if they had
    /// gone and come back. Albums are never trashed.
    struct ChangeEvent: Encodable {
        struct Lists: Encodable {
            var inserted: [String] = []
            var updated: [String] = []
            var deleted: [String] = []
            var trashed: [String]?
            var recovered: [String]?

            var isEmpty: Bool {
                inserted.isEmpty && updated.isEmpty && deleted.isEmpty && (trashed ?? []).isEmpty && (recovered ?? []).isEmpty
            }
        }

        /// The generation reached; absent for a credential limited to albums, whose position is the event's id
        /// alone (``ChangeCursor``).
        var generation: Int64?
        var assets = Lists()
        var albums = Lists()
        /// People made, changed (name, faces, key face, hidden) and gone: for credentials that see people only.
        var people: Lists?
    }

    private enum Wake: Sendable {
        case commit
        case heartbeat
        case progress(JobProgressFeed.Update)
    }

    /// A `progress` event: `{"assets": {"<id>": 0.42}}`, the encodes running now (an empty object once none is),
    /// and `"faces": 0.9`, the part of the library whose faces are found, while they are being found (for
    /// credentials that see people).
    struct ProgressEvent: Encodable {
        var assets: JobProgressFeed.Progress
        var faces: Double?
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let library = identity.photoLibrary
        let header = try request.headers[.lastEventID] ?? Query(request: request).string("since", maximumLength: 80)
        let positions = try Positions(identity: identity, key: { try services.accounts.changeCursorKey() })
        let reading = header.map(positions.read)
        if case .invalid = reading { throw APIError.badRequest(positions.invalidMessage) }
        let since: Int64? = if case .generation(let generation) = reading { generation } else { nil }
        let stale = if case .stale = reading { true } else { false }
        let start = try library.currentGeneration()
        let libraryKey = identity.user.libraryPath.isEmpty ? "" : identity.user.id
        let heartbeat = services.configuration.heartbeatInterval
        // Each stream holds a connection and a task for as long as the client likes: an account may hold a
        // few (a browser's tabs), not any number.
        guard let slot = services.changeStreams.open(key: identity.user.id) else {
            let limit = services.changeStreams.maximumPerKey
            throw APIError.tooManyRequests(
                "this account has \(limit) change streams open, the most it may; close other windows of the web app and try again",
                retryAfter: 10)
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .xAccelBuffering: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let (wakes, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .bufferingNewest(4))
                let commits = Task {
                    for await _ in library.commits() { continuation.yield(.commit) }
                }
                let beats = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: heartbeat)
                        continuation.yield(.heartbeat)
                    }
                }
                let progress = Task {
                    for await update in services.jobProgress.updates(library: libraryKey) { continuation.yield(.progress(update)) }
                }
                defer {
                    commits.cancel()
                    beats.cancel()
                    progress.cancel()
                    slot.close()
                }
                try await withGracefulShutdownHandler {
                    var last = since ?? start
                    try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                    if stale {
                        try await writer.write(ByteBuffer(string: try positions.event("reset", at: start)))
                    } else if since == nil {
                        try await writer.write(ByteBuffer(string: try positions.event("ready", at: start)))
                    }
                    try await send(after: &last, identity: identity, positions: positions, writer: &writer)
                    var shown = JobProgressFeed.Update()
                    for await wake in wakes {
                        switch wake {
                        case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                        case .commit: try await send(after: &last, identity: identity, positions: positions, writer: &writer)
                        case .progress(let update):
                            let visible = JobProgressFeed.Update(
                                assets: try visibleProgress(update.assets, identity: identity), faces: identity.seesPeople ? update.faces : nil)
                            guard visible != shown else { continue }
                            shown = visible
                            let data = try JSONEncoder().encode(ProgressEvent(assets: visible.assets, faces: visible.faces))
                            try await writer.write(ByteBuffer(string: "event: progress\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"))
                        }
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                try await writer.finish(nil)
            })
    }

    /// Writes the changes after `last` as events, a thousand log entries at most per event, and advances
    /// `last`. When the log no longer reaches back to `last`, writes a reset and continues from now.
    private func send(after last: inout Int64, identity: Identity, positions: Positions, writer: inout any ResponseBodyWriter) async throws {
        let library = identity.photoLibrary
        while true {
            guard let entries = try library.changeLog(after: last, limit: 1000) else {
                last = try library.currentGeneration()
                try await writer.write(ByteBuffer(string: try positions.event("reset", at: last)))
                return
            }
            guard let newest = entries.last?.generation else { return }
            var event = ChangeEvent(generation: positions.isSealed ? nil : newest)
            if identity.seesRecentlyDeleted {
                event.assets.trashed = []
                event.assets.recovered = []
            }
            if identity.seesPeople { event.people = ChangeEvent.Lists() }
            let visible = try visibleAssets(in: entries, identity: identity)
            for entry in entries {
                switch entry.entity {
                case .asset:
                    guard visible?.contains(entry.id) ?? true else { continue }
                    append(entry, to: &event.assets, seesRecentlyDeleted: identity.seesRecentlyDeleted)
                case .album:
                    guard identity.albumLimit?.contains(entry.id) ?? true else { continue }
                    append(entry, to: &event.albums, seesRecentlyDeleted: false)
                case .person:
                    guard event.people != nil else { continue }
                    append(entry, to: &event.people!, seesRecentlyDeleted: false)
                }
            }
            last = newest
            // A credential limited to albums hears only of what it can see: a commit it cannot see is not
            // announced at all, not even as an empty event, so that it cannot follow the library's activity.
            if identity.albumLimit != nil, event.assets.isEmpty, event.albums.isEmpty {
                if entries.count < 1000 { return }
                continue
            }
            let data = try JSONEncoder().encode(event)
            try await writer.write(
                ByteBuffer(string: "id: \(try positions.id(newest))\nevent: change\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"))
            if entries.count < 1000 { return }
        }
    }

    /// For a limited credential, which changed assets it may hear of: those in its albums now (deletions are
    /// heard through their albums' updates). Nil when it sees everything.
    /// The encodes a credential may know of: all of its library's, or those of its albums' assets.
    private func visibleProgress(_ progress: JobProgressFeed.Progress, identity: Identity) throws -> JobProgressFeed.Progress {
        guard let limit = identity.albumLimit, !progress.isEmpty else { return progress }
        let options = FetchOptions(predicate: .identifiers(Array(progress.keys)) && .inAlbums(limit), includeHiddenAssets: true)
        let visible = Set(try identity.photoLibrary.fetchAssetPage(options: options, limit: progress.count).assets.map(\.id))
        return progress.filter { visible.contains($0.key) }
    }

    private func visibleAssets(in entries: [LibraryChange], identity: Identity) throws -> Set<String>? {
        guard let limit = identity.albumLimit else { return nil }
        let ids = Array(Set(entries.filter { $0.entity == .asset && $0.operation != .delete }.map(\.id)))
        guard !ids.isEmpty else { return [] }
        let options = FetchOptions(predicate: .identifiers(ids) && .inAlbums(limit), includeHiddenAssets: true)
        var visible = Set(try identity.photoLibrary.fetchAssetPage(options: options, limit: ids.count).assets.map(\.id))
        // A deleted asset still in the credential's albums: it hears of the deletion (and of a later recovery).
        if visible.count < ids.count {
            visible.formUnion(try identity.photoLibrary.fetchAssetPage(in: .recentlyDeleted, options: options, limit: ids.count).assets.map(\.id))
        }
        return visible
    }

    /// How a stream's positions are written and read: change-log generations for a credential that sees the
    /// whole library; sealed cursors (``ChangeCursor``) for one limited to albums, which must not learn how many
    /// changes it did not see.
    struct Positions {
        /// A cursor for a limited credential; nil when positions are generations.
        let cursor: ChangeCursor?

        init(identity: Identity, key: () throws -> SymmetricKey) throws {
            if identity.albumLimit != nil, case .token(let token) = identity.credential {
                cursor = ChangeCursor(key: try key(), credential: token.id)
            } else {
                cursor = nil
            }
        }

        var isSealed: Bool { cursor != nil }

        enum Reading {
            case generation(Int64)
            /// A generation given where a cursor is expected (a position from before cursors): resumed with a reset.
            case stale
            case invalid
        }

        /// What a `Last-Event-ID` (or `since`) says.
        func read(_ text: String) -> Reading {
            if let cursor {
                if let generation = cursor.open(text) { return .generation(generation) }
                return Int64(text) != nil ? .stale : .invalid
            }
            guard let value = Int64(text), value >= 0 else { return .invalid }
            return .generation(value)
        }

        var invalidMessage: String {
            isSealed
                ? "Last-Event-ID (or 'since') must be the id of an event this stream sent to this token; reconnect without it to start from now"
                : "Last-Event-ID (or 'since') must be a change generation, a whole number"
        }

        /// The id of the event that reaches `generation`.
        func id(_ generation: Int64) throws -> String {
            try cursor?.seal(generation) ?? String(generation)
        }

        /// A `ready` or `reset` event at `generation`: its data is `{"generation": n}`, or `{}` for a sealed position.
        func event(_ name: String, at generation: Int64) throws -> String {
            "id: \(try id(generation))\nevent: \(name)\ndata: " + (isSealed ? "{}" : "{\"generation\":\(generation)}") + "\n\n"
        }
    }

    private func append(_ entry: LibraryChange, to lists: inout ChangeEvent.Lists, seesRecentlyDeleted: Bool) {
        func drop(_ id: String) {
            lists.inserted.removeAll { $0 == id }
            lists.updated.removeAll { $0 == id }
            lists.deleted.removeAll { $0 == id }
            lists.trashed?.removeAll { $0 == id }
            lists.recovered?.removeAll { $0 == id }
        }
        var operation = entry.operation
        if !seesRecentlyDeleted {
            // Gone and back, for a credential that does not see Recently Deleted.
            if operation == .trash { operation = .delete }
            if operation == .recover { operation = .insert }
        }
        switch operation {
        case .insert:
            drop(entry.id)
            lists.inserted.append(entry.id)
        case .update:
            let known = lists.inserted + lists.updated + (lists.recovered ?? [])
            if !known.contains(entry.id) { lists.updated.append(entry.id) }
        case .delete:
            drop(entry.id)
            lists.deleted.append(entry.id)
        case .trash:
            drop(entry.id)
            lists.trashed?.append(entry.id)
        case .recover:
            drop(entry.id)
            lists.recovered?.append(entry.id)
        }
    }
}
