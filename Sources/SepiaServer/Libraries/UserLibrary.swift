import SepiaImage
import SepiaLibrary

/// One user's library as the server uses it: the library, the image manager that delivers its renditions,
/// and the caches of decoded sources the editor's previews and the filter strip reuse.
final class UserLibrary: Sendable {
    /// The library.
    let library: PhotoLibrary
    /// Delivers renditions from the library's memory and disk caches, rendering what is missing.
    let images: ImageManager
    /// Decoded, downscaled sources for previews and strips.
    let previews: PreviewRenderer
    /// Assets read recently, valid until the library changes.
    let assets: AssetCache
    /// Keeps the library's change monitor polling for other processes' commits, so that the asset cache
    /// hears of them.
    private let watcher: Task<Void, Never>
    /// Finds the places of assets located before the library could (an older Sepia, or GeoNames' tables
    /// installed since), a batch at a time in the background; new locations are placed as they are committed.
    private let placer: Task<Void, Never>
    /// Makes the perceptual hashes of new photos and videos (near-duplicates), from their thumbnails: all that
    /// wait when the library opens, then after each commit. Every server of a deployment may hash the same new
    /// rows at once; they write the same values.
    private let hasher: Task<Void, Never>

    init(library: PhotoLibrary, previewCacheBytes: Int) {
        self.library = library
        images = ImageManager(library: library)
        previews = PreviewRenderer(library: library, cacheBytes: previewCacheBytes)
        assets = AssetCache(library: library)
        watcher = Task { for await _ in library.commits() {} }
        placer = Task(priority: .background) {
            while !Task.isCancelled, let done = try? library.placeWaitingAssets(limit: 500), done == 500 {
                await Task.yield()
            }
        }
        hasher = Task(priority: .background) {
            var commits = library.commits().makeAsyncIterator()
            while !Task.isCancelled {
                while !Task.isCancelled, let done = try? await library.hashWaitingAssets(limit: 200), done == 200 {}
                guard await commits.next() != nil else { return }
            }
        }
    }

    /// Stops the background work and closes the library.
    func close() {
        placer.cancel()
        hasher.cancel()
        watcher.cancel()
        library.close()
    }

    deinit {
        placer.cancel()
        hasher.cancel()
        watcher.cancel()
    }
}
