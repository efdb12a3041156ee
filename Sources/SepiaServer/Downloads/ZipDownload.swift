import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOFileSystem
import NIOPosix
import SepiaLibrary

/// A ZIP download as an HTTP answer: the items' files streamed through ``ZipStream`` as they are read, each in
/// chunks of ``chunkLength`` with the connection's backpressure (a file is read only as fast as the client takes
/// it), with the archive's exact `Content-Length`. Nothing is copied to disk, and memory stays at two chunks
/// per download (the one going out and the one read ahead) and what NIO holds of the connection's writes,
/// whatever the files' sizes.
///
/// The files are read as `GET /assets/{id}/original` reads them: through the library's file access (a path in
/// the library folder, or, with object storage, the server's local copy, fetched when the file is reached) and
/// NIO's file system on its thread pool. A download holds a slot of ``ServerServices/downloads`` until it ends,
/// however it ends: finished, failed, or cut off by a client that went away.
struct ZipDownload {
    /// The bytes read from a file at a time. Larger chunks cost less CPU per byte, but leave more memory behind
    /// in the allocator's per-thread arenas (on a fresh server, 1 MiB chunks grew the process by 50 MiB over four
    /// downloads of 1 GiB where 256 KiB chunks grew it by 17).
    static let chunkLength = 256 << 10

    let plan: DownloadPlan
    let library: PhotoLibrary
    /// The archive's file name, without `.zip`.
    let name: String
    let slot: StreamSlots.Slot
    let logger: Logger

    /// The answer for `assets` of `library` in `version`, named `name`: `429` when `slotKey` (an account, a
    /// share link) already has its limit of downloads streaming, `422` past the item limit.
    static func answer(
        _ assets: [Asset], version: DownloadPlan.Version, library: PhotoLibrary, name: String, slotKey: String, services: ServerServices,
        context: AppRequestContext, sidecars: Bool = true
    ) async throws -> Response {
        try checkCount(assets.count, services: services)
        guard let slot = services.downloads.open(key: slotKey) else {
            let limit = services.downloads.maximumPerKey
            throw APIError.tooManyRequests(
                "this \(slotKey.hasPrefix("share:") ? "link" : "account") has \(limit) ZIP download\(limit == 1 ? "" : "s") streaming, "
                    + "the most it may at once; wait for \(limit == 1 ? "it" : "one") to finish, then try again", retryAfter: 30)
        }
        let plan = try await DownloadPlan.make(for: assets, version: version, library: library, sidecars: sidecars)
        return ZipDownload(plan: plan, library: library, name: name, slot: slot, logger: context.logger).response()
    }

    /// Refuses a download of more items than the server allows, with `422`.
    static func checkCount(_ count: Int, services: ServerServices) throws {
        let limit = services.configuration.maximumDownloadItems
        guard count <= limit else {
            throw APIError.unprocessable(
                "a download may hold at most \(Identity.grouped(limit)) photos and videos, and this one has \(Identity.grouped(count)); "
                    + "download it in parts")
        }
    }

    /// `200` with the archive as the body.
    func response() -> Response {
        let headers: HTTPFields = [
            .contentType: "application/zip",
            .contentDisposition: ContentDisposition.attachment(filename: ZipNames.sanitized(name, fallback: "Photos") + ".zip"),
            .contentLength: String(plan.length),
            .cacheControl: "no-store",
            // A proxy passes the archive on as it comes, rather than spooling it to a file of its own.
            .xAccelBuffering: "no",
        ]
        let (plan, library, slot, logger) = (plan, library, slot, logger)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: Int(plan.length)) { writer in
                defer { slot.close() }
                var zip = ZipStream(limits: plan.limits)
                var written = 0
                do {
                    let files = FileSystem(threadPool: .singleton)
                    // Headers and descriptors are small: each waits to go out with the next bytes.
                    var pending = ByteBuffer()
                    for file in plan.files {
                        let path: String
                        switch file.source {
                        case .path(let known): path = known
                        case .resource(let resource): path = try await library.path(of: resource)
                        case .bytes(let bytes):
                            var header = zip.startEntry(file.entry)
                            pending.writeBuffer(&header)
                            let chunk = ByteBuffer(bytes: bytes)
                            try zip.update(with: chunk)
                            pending.writeImmutableBuffer(chunk)
                            var descriptor = try zip.endEntry()
                            pending.writeBuffer(&descriptor)
                            written += 1
                            continue
                        }
                        var header = zip.startEntry(file.entry)
                        pending.writeBuffer(&header)
                        try await files.withFileHandle(forReadingAt: FilePath(path)) { handle in
                            // One chunk is read ahead while the one before goes out: the disk and the socket
                            // overlap, and no more than two chunks of the file are in memory.
                            let length = ByteCount.bytes(Int64(Self.chunkLength))
                            var chunk = try await handle.readChunk(fromAbsoluteOffset: 0, length: length)
                            var position = Int64(chunk.readableBytes)
                            while chunk.readableBytes > 0 {
                                let offset = position
                                async let next = handle.readChunk(fromAbsoluteOffset: offset, length: length)
                                try zip.update(with: chunk)
                                if pending.readableBytes > 0 {
                                    try await writer.write(contentsOf: [pending, chunk])
                                    pending.clear()
                                } else {
                                    try await writer.write(chunk)
                                }
                                chunk = try await next
                                position += Int64(chunk.readableBytes)
                            }
                        }
                        var descriptor = try zip.endEntry()
                        pending.writeBuffer(&descriptor)
                        written += 1
                    }
                    var end = zip.finish()
                    pending.writeBuffer(&end)
                    try await writer.write(pending)
                    try await writer.finish(nil)
                } catch {
                    let progress = "after \(written) of \(plan.files.count) files (\(zip.offset) of \(plan.length) bytes)"
                    switch error {
                    case is ZipStream.SizeMismatch, is FileSystemError, is LibraryError:
                        logger.error("a ZIP download failed \(progress)", metadata: ["sepia.error": "\(error)"])
                    default:
                        logger.debug("a ZIP download ended early \(progress): the client went away", metadata: ["sepia.error": "\(error)"])
                    }
                    throw error
                }
            })
    }
}
