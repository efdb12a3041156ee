import Foundation
import SepiaCodecs
public import SepiaImage
import SepiaRAW
import SepiaVideo

/// Delivers images of assets at a target size (PhotoKit's `PHImageManager`): from the memory cache, from the
/// preview and thumbnail stored at import, or rendered from the asset's current version and cached.
///
/// ```swift
/// let manager = ImageManager(library: library)
/// for try await result in manager.requestImage(for: asset, targetSize: IntSize(width: 400, height: 400)) {
///     show(result.rendition, blurred: result.isDegraded)   // opportunistic: maybe a quick one first
/// }
/// ```
public final class ImageManager: Sendable {
    /// The library whose assets it delivers.
    public let library: PhotoLibrary
    /// The renditions being made, each once for every request that wants it, stopped when none waits.
    let renditionsInFlight = SharedWork<RenditionKey, Rendition>()

    /// A manager for `library`'s assets, caching in ``PhotoLibrary/imageStore``.
    public init(library: PhotoLibrary) {
        self.library = library
    }

    var store: ImageStore { library.imageStore }

    /// Requests an image of `asset` for `targetSize` and `contentMode`. The stream yields one result, or two
    /// for opportunistic delivery when a better image must be made: a degraded one at once, then the final
    /// one.
    public func requestImage(
        for asset: Asset, targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) -> AsyncThrowingStream<ImageResult, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.deliver(asset, targetSize, contentMode, options) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The final image of `asset` for `targetSize` and `contentMode` (never degraded, unless fast delivery
    /// asked for speed).
    public func image(
        for asset: Asset, targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat)
    ) async throws -> ImageResult {
        var last: ImageResult?
        try await deliver(asset, targetSize, contentMode, options) { last = $0 }
        guard let last else { throw LibraryError(.notFound, "no image was delivered", subject: asset.id) }
        return last
    }

    /// The final image of `asset` for `targetSize` and `contentMode` when a cache has it (memory, disk or the
    /// bucket), as ``image(for:targetSize:contentMode:options:)`` would deliver it without rendering; nil when it
    /// must be rendered. A server answers these at once and queues only the renders.
    public func cachedImage(
        for asset: Asset, targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat)
    ) async -> ImageResult? {
        let plan = plan(asset, targetSize, contentMode, options)
        if let hit = store.memoryRendition(for: plan.exactKey) {
            return ImageResult(rendition: hit, isDegraded: false, origin: .memory)
        }
        let standard = options.resizeMode != .exact && options.format == .jpeg
        if standard {
            for key in plan.standardKeys where covers(standardSize(key, plan), plan) {
                if let hit = store.memoryRendition(for: key) {
                    return ImageResult(rendition: hit, isDegraded: false, origin: .memory)
                }
            }
        }
        if options.resizeMode == .fast && options.format == .jpeg {
            for key in plan.standardKeys where covers(standardSize(key, plan), plan) {
                if let stored = await store.anyRendition(for: key) {
                    return ImageResult(rendition: stored, isDegraded: false, origin: .disk)
                }
            }
        }
        if let stored = await store.anyRendition(for: plan.exactKey) {
            return ImageResult(rendition: stored, isDegraded: false, origin: .disk)
        }
        return nil
    }

    // MARK: - Delivery

    private struct Plan {
        var version: String
        var sourceSize: IntSize
        var target: IntSize
        var mode: ContentMode
        /// The size the content mode scales the source to for the target (before any crop).
        var needed: IntSize
        var exactKey: RenditionKey
        var standardKeys: [RenditionKey]  // thumbnail first, then preview
    }

    private func plan(_ asset: Asset, _ targetSize: IntSize, _ contentMode: ContentMode, _ options: ImageRequestOptions) -> Plan {
        let version = options.version == .original ? asset.originalVersion : asset.contentVersion
        let source =
            version == asset.originalVersion
            ? IntSize(width: asset.originalWidth, height: asset.originalHeight)
            : IntSize(width: asset.pixelWidth, height: asset.pixelHeight)
        var target = IntSize(width: max(1, targetSize.width), height: max(1, targetSize.height))
        var mode = contentMode
        if options.resizeMode == .none {
            target = source
            mode = .aspectFit
        }
        let needed = mode.scaledSize(of: source, toFit: target)
        return Plan(
            version: version, sourceSize: source, target: target, mode: mode, needed: needed,
            exactKey: RenditionKey(assetID: asset.id, version: version, size: target, mode: mode, format: options.format),
            standardKeys: [RenditionRenderer.thumbnail, RenditionRenderer.preview].map {
                RenditionKey(assetID: asset.id, version: version, size: $0, mode: .aspectFit)
            })
    }

    /// The size a standard rendition of `plan`'s source has.
    private func standardSize(_ key: RenditionKey, _ plan: Plan) -> IntSize {
        ContentMode.aspectFit.scaledSize(of: plan.sourceSize, toFit: key.size)
    }

    private func covers(_ size: IntSize, _ plan: Plan) -> Bool {
        size.width >= plan.needed.width && size.height >= plan.needed.height
    }

    private func deliver(
        _ asset: Asset, _ targetSize: IntSize, _ contentMode: ContentMode, _ options: ImageRequestOptions,
        _ yield: (ImageResult) -> Void
    ) async throws {
        let plan = plan(asset, targetSize, contentMode, options)
        // Whatever is in memory and good enough comes back at once, in every mode.
        if let hit = store.memoryRendition(for: plan.exactKey) {
            return yield(ImageResult(rendition: hit, isDegraded: false, origin: .memory))
        }
        if options.resizeMode != .exact && options.format == .jpeg {
            for key in plan.standardKeys where covers(standardSize(key, plan), plan) {
                if let hit = store.memoryRendition(for: key) {
                    return yield(ImageResult(rendition: hit, isDegraded: false, origin: .memory))
                }
            }
        }
        switch options.deliveryMode {
        case .fastFormat where options.format == .jpeg:
            // The best stored rendition there is, even if smaller than asked.
            let stored = plan.standardKeys.reversed().compactMap { key in store.rendition(for: key).map { (key, $0) } }
            if let (_, best) = stored.first(where: { covers($0.1.pixelSize, plan) }) ?? stored.first {
                return yield(ImageResult(rendition: best, isDegraded: !covers(best.pixelSize, plan), origin: .disk))
            }
            yield(try await finalImage(asset, plan, options))
        case .opportunistic:
            let thumbnail = plan.standardKeys[0]
            if !(options.resizeMode != .exact && options.format == .jpeg && covers(standardSize(thumbnail, plan), plan)),
                let quick = store.rendition(for: thumbnail)
            {
                yield(ImageResult(rendition: quick, isDegraded: true, origin: .disk))
            }
            yield(try await finalImage(asset, plan, options))
        case .highQualityFormat, .fastFormat:
            yield(try await finalImage(asset, plan, options))
        }
    }

    /// The image at the requested quality: a covering stored rendition, or one rendered for the request.
    private func finalImage(_ asset: Asset, _ plan: Plan, _ options: ImageRequestOptions) async throws -> ImageResult {
        try Task.checkCancellation()
        if options.resizeMode == .fast && options.format == .jpeg {
            for key in plan.standardKeys where covers(standardSize(key, plan), plan) {
                if let stored = await store.anyRendition(for: key) {
                    return ImageResult(rendition: stored, isDegraded: false, origin: .disk)
                }
                // The cache was cleared (or the preview is still to come): make the standard renditions.
                try await rebuildStandardRenditions(asset, plan)
                if let stored = store.rendition(for: key) {
                    return ImageResult(rendition: stored, isDegraded: false, origin: .rendered)
                }
            }
        }
        if let stored = await store.anyRendition(for: plan.exactKey) {
            return ImageResult(rendition: stored, isDegraded: false, origin: .disk)
        }
        let rendition = try await coalesced(plan.exactKey) {
            // Render from the smallest standard rendition large enough — made first if no tier has it — else
            // from the full image. The choice depends on the plan alone, never on what happens to be stored, so
            // that every process makes the same bytes for the same key.
            let image: Image
            if plan.needed != plan.sourceSize, let key = plan.standardKeys.first(where: { self.covers(self.standardSize($0, plan), plan) }),
                !plan.standardKeys.contains(plan.exactKey)
            {
                if await self.store.anyRendition(for: key) == nil { try await self.rebuildStandardRenditions(asset, plan) }
                guard let stored = await self.store.anyRendition(for: key) else {
                    throw LibraryError(.fileSystem, "the standard rendition \(key) could not be kept", subject: asset.id)
                }
                image = try stored.image()
            } else {
                image = try await self.fullImage(asset, version: plan.version)
            }
            let rendered = try await self.library.renderer.render(image, size: plan.target, mode: plan.mode, format: options.format)
            // Previews up to 2048 px go to the disk cache too; larger ones stay in memory.
            self.store.store(rendered, for: plan.exactKey, diskToo: max(plan.target.width, plan.target.height) <= 2048)
            return rendered
        }
        return ImageResult(rendition: rendition, isDegraded: false, origin: .rendered)
    }

    private func rebuildStandardRenditions(_ asset: Asset, _ plan: Plan) async throws {
        let key = plan.standardKeys[1]
        _ = try await coalesced(key) {
            try await self.library.renderer.storeStandardRenditions(
                of: try await self.fullImage(asset, version: plan.version), assetID: asset.id, version: plan.version, in: self.store,
                missingOnly: true)
            // A request for this very rendition that arrives meanwhile waits on this task and is answered with
            // what it returns: the rendition itself, never a placeholder.
            guard let made = await self.store.anyRendition(for: key) else {
                throw LibraryError(.fileSystem, "the standard rendition \(key) could not be kept", subject: asset.id)
            }
            return made
        }
    }

    /// The full-size, upright image of one version of an asset.
    func fullImage(_ asset: Asset, version: String) async throws -> Image {
        let path: String
        if version == asset.originalVersion {
            path = try await library.originalPath(of: asset)
        } else {
            guard let hash = try library.store.adjustment(id: version)?.renderedContentHash else {
                throw LibraryError(.notFound, "the edit's render is not in the library; run `sepia check`", subject: asset.id)
            }
            path = try await library.renderPath(hash: hash)
        }
        do {
            // A movie's picture is its poster frame; its container, known since the import, is not sniffed again.
            if asset.mediaKind.isMovie && version == asset.originalVersion {
                return try VideoSource(path: path, format: asset.originalFormat, options: library.configuration.videoOptions).image
            }
            return try PhotoDecoding.open(path: path).image
        } catch {
            var failure = LibraryError(.fileSystem, "cannot read the asset's image: \(error.reason)", subject: asset.id)
            // What the decoder found wrong in the file, so that a caller can tell a damaged file from one it could not reach.
            failure.codecCode = error.code
            throw failure
        }
    }

    /// Runs `work` once for concurrent requests of the same key; it stops when every request for it was cancelled.
    private func coalesced(_ key: RenditionKey, _ work: @escaping @Sendable () async throws -> Rendition) async throws -> Rendition {
        try await renditionsInFlight.run(key, work)
    }
}
