public import SepiaImage
import Synchronization

/// An ``ImageManager`` that also prepares images ahead of need (PhotoKit's `PHCachingImageManager`): a grid
/// starts caching the assets about to scroll into view and stops caching those that left, with the same
/// size, mode and options.
public final class CachingImageManager: Sendable {
    /// The manager that delivers and caches.
    public let manager: ImageManager

    private struct Request: Hashable {
        var assetID: String
        var targetSize: IntSize
        var contentMode: ContentMode
        var options: ImageRequestOptions
    }

    private struct State {
        var queue: [(Request, Asset)] = []
        var queued: Set<Request> = []
        var current: (Request, Task<Void, Never>)?
        var worker: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// A caching manager for `library`.
    public init(library: PhotoLibrary) {
        manager = ImageManager(library: library)
    }

    /// Delivers an image; see ``ImageManager/requestImage(for:targetSize:contentMode:options:)``.
    public func requestImage(
        for asset: Asset, targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) -> AsyncThrowingStream<ImageResult, any Error> {
        manager.requestImage(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
    }

    /// Starts preparing images of `assets` in the background, in order, one at a time.
    public func startCaching(
        for assets: [Asset], targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat)
    ) {
        var final = options
        final.deliveryMode = .highQualityFormat
        state.withLock { state in
            for asset in assets {
                let request = Request(assetID: asset.id, targetSize: targetSize, contentMode: contentMode, options: final)
                if state.queued.insert(request).inserted { state.queue.append((request, asset)) }
            }
            if state.worker == nil { state.worker = startWorker() }
        }
    }

    /// Stops preparing images of `assets` for these arguments (they must match those of the start call).
    public func stopCaching(
        for assets: [Asset], targetSize: IntSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat)
    ) {
        var final = options
        final.deliveryMode = .highQualityFormat
        let requests = Set(assets.map { Request(assetID: $0.id, targetSize: targetSize, contentMode: contentMode, options: final) })
        state.withLock { state in
            state.queue.removeAll { requests.contains($0.0) }
            state.queued.subtract(requests)
            if let (request, task) = state.current, requests.contains(request) { task.cancel() }
        }
    }

    /// Stops preparing every image.
    public func stopCachingImagesForAllAssets() {
        state.withLock { state in
            state.queue.removeAll()
            state.queued.removeAll()
            state.current?.1.cancel()
        }
    }

    /// The number of images waiting to be prepared or being prepared now; zero once the work is done.
    public var pendingCount: Int { state.withLock { $0.queue.count + ($0.current == nil ? 0 : 1) } }

    private func startWorker() -> Task<Void, Never> {
        Task.detached { [weak self] in
            while let self {
                let next = self.state.withLock { state -> (Request, Task<Void, Never>)? in
                    guard !state.queue.isEmpty else {
                        state.worker = nil
                        state.current = nil
                        return nil
                    }
                    let (request, asset) = state.queue.removeFirst()
                    state.queued.remove(request)
                    let manager = self.manager
                    let task = Task {
                        _ = try? await manager.image(
                            for: asset, targetSize: request.targetSize, contentMode: request.contentMode, options: request.options)
                    }
                    state.current = (request, task)
                    return (request, task)
                }
                guard let (_, task) = next else { return }
                await task.value
            }
        }
    }
}
