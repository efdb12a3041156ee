import Foundation
import SepiaCodecs
import SepiaObjectStore

/// Renditions kept in the bucket of a library on object storage, under `renditions/<asset>/<file>`, so that
/// a thumbnail one server rendered is one download away for every other server rather than a decode. The
/// bucket is the shared tier behind each server's own memory and disk caches; like them it holds derived
/// data only, so every failure here costs a render, never a photo.
final class SharedRenditions: Sendable {
    let client: S3Client
    /// Assets whose renditions are to go, removed one after another by a task of their own: deleting
    /// thousands of photos at once queues thousands of removals, not thousands of concurrent requests.
    private let removals: AsyncStream<(assetID: String, keeping: Set<String>)>.Continuation

    init(client: S3Client) {
        self.client = client
        let (stream, continuation) = AsyncStream.makeStream(of: (assetID: String, keeping: Set<String>).self)
        removals = continuation
        // Ends when the stream finishes (this store is released) and the queued removals are done.
        Task { [client] in
            for await removal in stream {
                await Self.removeAll(assetID: removal.assetID, keepingVersions: removal.keeping, from: client)
            }
        }
    }

    deinit {
        removals.finish()
    }

    /// The object key of `key`'s rendition.
    static func objectKey(_ key: RenditionKey) -> String {
        "renditions/" + key.assetID + "/" + key.fileName
    }

    /// The encoded rendition for `key`, or nil when the bucket has none (or cannot be reached).
    func data(for key: RenditionKey) async -> [UInt8]? {
        guard let object = try? await client.get(key: Self.objectKey(key)) else { return nil }
        return Array(object.bytes)
    }

    /// Stores `rendition` for `key`; a failure is left for the next render to repair.
    func store(_ rendition: Rendition, for key: RenditionKey) async {
        _ = try? await client.put(
            Data(rendition.data), key: Self.objectKey(key), contentType: rendition.format == .webp ? "image/webp" : "image/jpeg")
    }

    /// Queues the removal of an asset's renditions, except those of the versions in `keeping`.
    func scheduleRemoval(assetID: String, keepingVersions keeping: Set<String>) {
        removals.yield((assetID, keeping))
    }

    /// Removes the renditions of an asset, except those of the versions in `keeping`.
    private static func removeAll(assetID: String, keepingVersions keeping: Set<String>, from client: S3Client) async {
        var doomed: [String] = []
        do {
            for try await object in client.listAll(prefix: "renditions/" + assetID + "/") {
                let name = String(object.key.split(separator: "/").last ?? "")
                if let key = RenditionKey(assetID: assetID, fileName: name), keeping.contains(key.version) { continue }
                doomed.append(object.key)
            }
        } catch {
            return
        }
        for key in doomed { try? await client.delete(key: key) }
    }
}
