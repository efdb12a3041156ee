import Foundation
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import Synchronization

/// Renders the editor's previews and the filter strip on a downscaled copy of a photo, and keeps those
/// copies: the first preview of a photo decodes it (shrinking on load), the next ones start from the decoded
/// pixels and cost only the filters and the encoding.
///
/// A preview must look like the full-size result made smaller, so the recipe is scaled with the image
/// (``EditRecipe/scaled(by:)``): radii, positions and crop rectangles are in full-size pixels.
final class PreviewRenderer: Sendable {
    let library: PhotoLibrary
    let cacheBytes: Int

    /// A decoded, downscaled copy of one version of a photo.
    struct Source: Sendable {
        let pixels: PixelBuffer
        /// Its size over the full-size image's.
        let scale: Double
        /// The pixels as an image, made once (making one looks at every pixel to learn whether it is opaque).
        let image: Image

        init(pixels: PixelBuffer, scale: Double) {
            self.pixels = pixels
            self.scale = scale
            image = Image(pixels: pixels)
        }

        var bytes: Int { pixels.pixels.count * MemoryLayout<SIMD4<Float>>.stride }
    }

    private struct Key: Hashable {
        var assetID: String
        var base: String
        /// A RAW photo's development (nil: the default).
        var development: RAWDevelopmentStep?
        var longSide: Int
    }

    private struct State {
        var entries: [(key: Key, source: Source)] = []
        var inFlight: [Key: Task<Source, any Error>] = [:]
        var bytes = 0
        var decodes = 0
    }

    private let state = Mutex(State())
    /// The last editing inputs (the photo's header and file), so that a slider's previews do not reopen
    /// the file each time.
    private let inputs = Mutex<[(key: String, input: ContentEditingInput)]>([])

    /// The long sides downscaled copies are made at: previews reuse the smallest one that is large enough.
    static let sourceSides = [256, 512, 768, 1024, 1536, 2048]

    init(library: PhotoLibrary, cacheBytes: Int) {
        self.library = library
        self.cacheBytes = cacheBytes
    }

    /// `recipe` applied to `asset`, fitted inside `size`, encoded as `format`.
    ///
    /// The recipe runs on a copy of the photo at the preview's own scale, so every filter handles the pixels
    /// shown and no more; and the steps that stayed the same since the previous preview of the photo are not
    /// run again while a slider moves (``RenderedPrefix``).
    func preview(of asset: Asset, recipe: EditRecipe, size: IntSize, format: ImageFormat) async throws -> Rendition {
        let input = try await editingInput(for: asset)
        let development = try recipe.rawDevelopment()
        let filters = recipe.withoutRAWDevelopment
        let full = input.baseImage
        let output = try filters.apply(to: full).extent
        let needed = min(
            1, Double(size.width) / Double(output.width), Double(size.height) / Double(output.height))
        let long = max(full.extent.width, full.extent.height)
        let side = min(long, max(1, Int((needed * Double(long)).rounded(.up))))
        let source = try await self.source(for: input, developed: development, recipe: recipe, longSide: side)
        try recipe.checkCost(limit: costLimit) { candidate in
            try candidate.withoutRAWDevelopment.scaled(by: source.scale).apply(to: source.image).thumbnail(size: size, mode: .aspectFit)
        }
        let steps = try filters.scaled(by: source.scale).steps
        let key = Self.key(for: input, developed: development, longSide: side)
        let image = try await applying(steps, to: source, key: key).thumbnail(size: size, mode: .aspectFit)
        let options = EncodeOptions(quality: 85)
        if format == .webp {
            let bitmap = try await library.renderContext.renderBitmap(image, layout: .rgb)
            return Rendition(data: try ImageEncoding.encode(bitmap, as: .webp, options: options), pixelSize: bitmap.size, format: .webp)
        }
        // A JPEG's rows are encoded as they render, while the next rows render.
        let data = try await ImageEncoding.encode(image, as: .jpeg, options: options, context: library.renderContext)
        return Rendition(data: data, pixelSize: image.extent.size, format: .jpeg)
    }

    /// The steps a photo's previews shared with the one before, rendered: while a slider moves, only its own
    /// step and those after it change from one preview to the next, so the steps before it are rendered once
    /// and each preview starts from their result (as an editor's pixel pipeline caches each module's output).
    private struct RenderedPrefix {
        /// The source the steps ran on.
        var key: Key
        /// The steps of the last preview made from that source.
        var lastSteps: [EditRecipe.Step]
        /// How many of `lastSteps` `image` has applied.
        var count = 0
        /// The source with the first `count` steps applied, rendered (nil: none are kept).
        var image: Image?
    }

    /// The sources previewed last, at most ``prefixLimit``, the newest last. Each keeps at most half of
    /// ``cacheBytes`` of pixels (a 3-megapixel preview with the default 96 MB), so together they hold no more
    /// than the sources' cache does.
    private let prefixes = Mutex<[RenderedPrefix]>([])
    private static let prefixLimit = 2
    private let prefixStarts = Mutex(0)

    /// The most a preview, an Auto analysis or a strip's tile may cost: the library's limit.
    var costLimit: RenderCostLimit { library.configuration.renderCostLimit }

    /// How many previews started from the rendered steps of the one before.
    var previewsFromRenderedSteps: Int { prefixStarts.withLock { $0 } }

    /// `steps` applied to `source`, starting from the rendered steps of the previous preview they begin with.
    private func applying(_ steps: [EditRecipe.Step], to source: Source, key: Key) async throws -> Image {
        let previous = prefixes.withLock { prefixes in prefixes.last { $0.key == key } }
        // The kept pixels, when this preview begins with the steps they hold.
        let reusable = previous.flatMap { previous -> (count: Int, image: Image)? in
            guard let image = previous.image, previous.count <= steps.count,
                steps[..<previous.count] == previous.lastSteps[..<previous.count]
            else { return nil }
            return (previous.count, image)
        }
        var start = reusable?.image ?? source.image
        var done = reusable?.count ?? 0
        if done > 0 { prefixStarts.withLock { $0 += 1 } }
        // The steps this preview shares with the previous one: the next preview most likely shares them too.
        var shared = 0
        if let last = previous?.lastSteps {
            while shared < min(last.count, steps.count), last[shared] == steps[shared] { shared += 1 }
        }
        var kept = reusable
        if shared > done, shared < steps.count {
            let prefix = try EditRecipe(steps: Array(steps[done..<shared])).apply(to: start)
            let budget = cacheBytes / 2 / MemoryLayout<SIMD4<Float>>.stride
            if !prefix.extent.isInfinite, !prefix.extent.isEmpty, prefix.extent.area <= budget {
                start = Image(pixels: try await library.renderContext.render(prefix))
                kept = (shared, start)
                done = shared
            }
        }
        prefixes.withLock { prefixes in
            prefixes.removeAll { $0.key == key }
            prefixes.append(RenderedPrefix(key: key, lastSteps: steps, count: kept?.count ?? 0, image: kept?.image))
            if prefixes.count > Self.prefixLimit { prefixes.removeFirst() }
        }
        return try EditRecipe(steps: Array(steps[done...])).apply(to: start)
    }

    /// Auto's Adjust positions for `asset` as `recipe` shows it, analysed on a proxy of
    /// ``AutoAdjustment/proxySize`` pixels made from the smallest cached source that covers it.
    func autoAdjustment(of asset: Asset, recipe: EditRecipe) async throws -> AdjustmentValues {
        let input = try await editingInput(for: asset)
        let development = try recipe.rawDevelopment()
        let filters = recipe.withoutRAWDevelopment
        let output = try filters.apply(to: input.baseImage).extent
        let proxy = Double(AutoAdjustment.proxySize)
        let needed = min(1, proxy / Double(max(1, output.width)), proxy / Double(max(1, output.height)))
        let long = max(input.baseImage.extent.width, input.baseImage.extent.height)
        let source = try await self.source(
            for: input, developed: development, recipe: recipe, longSide: Self.side(for: needed * Double(long), full: long))
        try recipe.checkCost(limit: costLimit) { try $0.withoutRAWDevelopment.scaled(by: source.scale).apply(to: source.image) }
        let image = try filters.scaled(by: source.scale).apply(to: source.image)
        return try await AutoAdjustment.values(for: image, context: library.renderContext)
    }

    /// The filter strip: every step (nil for the unfiltered photo) applied to a `tile` × `tile` square of the
    /// photo, side by side in one JPEG.
    func strip(of asset: Asset, steps: [EditRecipe.Step?], tile: Int) async throws -> Rendition {
        try await strip(of: asset, recipes: steps.map { step in step.map { EditRecipe(steps: [$0]) } }, tile: tile)
    }

    /// One square tile of `tile` pixels per recipe (nil: the photo as it is), left to right, as one JPEG: the
    /// catalog's looks, or the user's presets (`names`, for the error that names one too costly to show).
    /// Every tile's cost is checked before any is rendered.
    func strip(of asset: Asset, recipes: [EditRecipe?], names: [String]? = nil, tile: Int) async throws -> Rendition {
        let input = try await editingInput(for: asset)
        let extent = input.baseImage.extent
        let short = max(1, min(extent.width, extent.height))
        let long = max(extent.width, extent.height)
        let needed = Double(tile) / Double(short)
        let source = try await self.source(
            for: input, developed: nil, recipe: EditRecipe(steps: []), longSide: Self.side(for: min(1, needed) * Double(long), full: long))
        let square = IntSize(width: tile, height: tile)
        let thumbnail = source.image.thumbnail(size: square, mode: .aspectFill)
        let tileScale = source.scale * Double(thumbnail.extent.width) / Double(max(1, min(source.pixels.extent.width, source.pixels.extent.height)))
        for (index, recipe) in recipes.enumerated() {
            guard let recipe else { continue }
            do {
                try recipe.checkCost(limit: costLimit) { try $0.scaled(by: tileScale).apply(to: thumbnail) }
            } catch let error as RecipeCostError {
                guard let name = names?[index] else { throw error }
                throw APIError.unprocessable("the preset '\(name)' is too costly to show: \(error.description); change or delete it")
            }
        }
        let base = try await library.renderContext.render(thumbnail)
        let baseImage = Image(pixels: base)
        var sheet = Bitmap(width: tile * max(1, recipes.count), height: tile, layout: .rgb)
        for (index, recipe) in recipes.enumerated() {
            var image = baseImage
            if let recipe {
                image = try recipe.scaled(by: tileScale).apply(to: baseImage)
            }
            let bitmap = try await library.renderContext.renderBitmap(image, region: base.extent, layout: .rgb)
            for y in 0..<min(tile, bitmap.height) {
                let from = y * bitmap.bytesPerRow
                let to = y * sheet.bytesPerRow + index * tile * 3
                let count = min(bitmap.bytesPerRow, tile * 3)
                sheet.bytes.replaceSubrange(to..<(to + count), with: bitmap.bytes[from..<(from + count)])
            }
        }
        let data = try ImageEncoding.encode(sheet, as: .jpeg, options: EncodeOptions(quality: 82))
        return Rendition(data: data, pixelSize: sheet.size)
    }

    /// The full-size, upright image edits of `asset` apply to (its original, or the render of an edit in a
    /// format Sepia cannot read), not decoded.
    func baseImage(of asset: Asset) async throws -> Image {
        try await editingInput(for: asset).baseImage
    }

    /// The editing input of `asset`'s current version, kept for the next previews.
    func editingInput(for asset: Asset) async throws -> ContentEditingInput {
        let key = asset.id + "/" + asset.contentVersion
        if let hit = inputs.withLock({ $0.first { $0.key == key }?.input }) { return hit }
        let input = try await library.contentEditingInput(for: asset)
        inputs.withLock { inputs in
            inputs.removeAll { $0.key == key }
            inputs.append((key, input))
            if inputs.count > 2 { inputs.removeFirst() }
        }
        return input
    }

    /// The smallest source side at least `needed` (and never more than the full size).
    static func side(for needed: Double, full: Int) -> Int {
        sourceSides.first { Double($0) >= needed.rounded(.up) && $0 < full } ?? full
    }

    private static func key(for input: ContentEditingInput, developed development: RAWDevelopmentStep?, longSide: Int) -> Key {
        let development = development?.isDefault == true ? nil : development
        return Key(assetID: input.asset.id, base: input.fullSizeImagePath, development: development, longSide: longSide)
    }

    /// The downscaled copy of the input's base with `longSide`, developed as `recipe` says when it is RAW, from
    /// the cache or made once for all who ask at the same time. A copy at one of ``sourceSides`` (or the full
    /// size) is decoded from the file; a RAW photo is developed in draft mode (at half size when that is large
    /// enough), as Core Image's `CIRAWFilter` does for previews. A copy at any other side is resampled from the
    /// next larger of those, so that a preview of a new size does not decode the photo again.
    private func source(
        for input: ContentEditingInput, developed development: RAWDevelopmentStep?, recipe: EditRecipe, longSide: Int
    ) async throws -> Source {
        let key = Self.key(for: input, developed: development, longSide: longSide)
        let task = state.withLock { state -> Task<Source, any Error> in
            if let index = state.entries.firstIndex(where: { $0.key == key }) {
                let entry = state.entries.remove(at: index)
                state.entries.append(entry)
                let source = entry.source
                return Task { source }
            }
            if let running = state.inFlight[key] { return running }
            let context = library.renderContext
            let full = input.baseImage.extent
            let long = max(full.width, full.height)
            let task = Task<Source, any Error> {
                let decodedSide = Self.side(for: Double(longSide), full: long)
                if decodedSide != longSide {
                    let larger = try await self.source(for: input, developed: development, recipe: recipe, longSide: decodedSide)
                    let box = IntSize(width: longSide, height: longSide)
                    let pixels = try await context.render(larger.image.thumbnail(size: box, mode: .aspectFit))
                    let from = larger.pixels.extent
                    let shrink = Double(max(pixels.extent.width, pixels.extent.height)) / Double(max(1, from.width, from.height))
                    return Source(pixels: pixels, scale: larger.scale * shrink)
                }
                self.state.withLock { $0.decodes += 1 }
                let image = try input.baseImage(for: recipe, draft: true)
                let long = max(image.extent.width, image.extent.height)
                let fitted = longSide >= long ? image : image.thumbnail(size: IntSize(width: longSide, height: longSide), mode: .aspectFit)
                let pixels = try await context.render(fitted)
                return Source(pixels: pixels, scale: Double(max(pixels.extent.width, pixels.extent.height)) / Double(max(1, long)))
            }
            state.inFlight[key] = task
            return task
        }
        do {
            let source = try await task.value
            store(source, for: key)
            return source
        } catch {
            _ = state.withLock { $0.inFlight.removeValue(forKey: key) }
            throw error
        }
    }

    private func store(_ source: Source, for key: Key) {
        state.withLock { state in
            state.inFlight[key] = nil
            guard !state.entries.contains(where: { $0.key == key }) else { return }
            state.entries.append((key, source))
            state.bytes += source.bytes
            while state.bytes > cacheBytes, state.entries.count > 1 {
                state.bytes -= state.entries.removeFirst().source.bytes
            }
        }
    }

    /// How many copies were decoded from the photos' files (the others were resampled from those, or kept).
    var decodeCount: Int { state.withLock { $0.decodes } }

    /// Forgets the copies of an asset (it was deleted or edited).
    func forget(assetID: String) {
        inputs.withLock { $0.removeAll { $0.key.hasPrefix(assetID + "/") } }
        prefixes.withLock { $0.removeAll { $0.key.assetID == assetID } }
        state.withLock { state in
            state.entries.removeAll { entry in
                guard entry.key.assetID == assetID else { return false }
                state.bytes -= entry.source.bytes
                return true
            }
        }
    }
}
