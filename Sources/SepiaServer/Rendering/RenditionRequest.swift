import SepiaCodecs
import SepiaImage

/// A rendition asked for in a URL (`size=WxH&mode=fit|fill|stretch&format=jpeg|webp`), snapped to one of a
/// few bucket sizes so that many clients asking for slightly different boxes share few renditions.
struct RenditionRequest: Sendable, Hashable {
    /// The snapped box.
    var size: IntSize
    var mode: ContentMode
    var format: ImageFormat

    /// The long sides renditions are made at.
    static let buckets = [64, 128, 256, 512, 768, 1024, 1440, 2048, 3072, 4096]

    /// A request for a box already snapped to a bucket.
    init(size: IntSize, mode: ContentMode, format: ImageFormat) {
        self.size = size
        self.mode = mode
        self.format = format
    }

    /// Reads the query; sizes are `W`, `WxH`, each 1…8192.
    init(size: String?, mode: String?, format: String?, defaultSize: Int = 256) throws {
        let requested = try Self.parseSize(size) ?? IntSize(width: defaultSize, height: defaultSize)
        switch mode?.lowercased() {
        case nil, "fit": self.mode = .aspectFit
        case "fill": self.mode = .aspectFill
        case "stretch": self.mode = .scaleToFill
        case let other?: throw APIError.badRequest("mode '\(other)' is not one of fit, fill, stretch")
        }
        switch format?.lowercased() {
        case nil, "jpeg", "jpg": self.format = .jpeg
        case "webp": self.format = .webp
        case let other?: throw APIError.badRequest("format '\(other)' is not one of jpeg, webp")
        }
        self.size = Self.snap(requested, mode: self.mode)
    }

    /// `N` or `WxH`, each side 1…8192; nil when absent.
    static func parseSize(_ text: String?, maximum: Int = 8192) throws -> IntSize? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let w = Int(parts[0]), let h = Int(parts[parts.count - 1]),
            (1...maximum).contains(w), (1...maximum).contains(h)
        else {
            throw APIError.badRequest("size '\(text)' must be N or WxH with each side from 1 to \(maximum)")
        }
        return IntSize(width: w, height: h)
    }

    /// The request for a photo of `size`: a stretched rendition is never larger than the photo (the box
    /// keeps its ratio, scaled down to fit inside the photo's size), so that a tiny photo cannot be blown up
    /// to 4096 × 4096; fit and fill never upscale anyway.
    func bounded(by size: IntSize) -> RenditionRequest {
        guard mode == .scaleToFill, self.size.width > size.width || self.size.height > size.height else { return self }
        let factor = min(Double(size.width) / Double(self.size.width), Double(size.height) / Double(self.size.height))
        var bounded = self
        bounded.size = IntSize(
            width: max(1, Int((Double(self.size.width) * factor).rounded())), height: max(1, Int((Double(self.size.height) * factor).rounded())))
        return bounded
    }

    /// The bucket for a box: the long side goes up to the next bucket; for `fill` and `stretch` the short
    /// side keeps the box's ratio, rounded to a sixteenth of the bucket.
    static func snap(_ size: IntSize, mode: ContentMode) -> IntSize {
        let long = max(size.width, size.height)
        let bucket = buckets.first { $0 >= long } ?? buckets[buckets.count - 1]
        if mode == .aspectFit { return IntSize(width: bucket, height: bucket) }
        let step = bucket / 16
        let short = min(size.width, size.height)
        let snappedShort = min(bucket, max(step, Int((Double(short) * Double(bucket) / Double(long) / Double(step)).rounded()) * step))
        return size.width >= size.height
            ? IntSize(width: bucket, height: snappedShort) : IntSize(width: snappedShort, height: bucket)
    }
}
