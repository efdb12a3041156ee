public import Foundation
import SepiaCodecs
public import SepiaImage

/// Renders ``CIImage``s (`CIContext`). Create one and reuse it: it owns Sepia's worker threads.
///
/// Rendering methods block the calling thread until the pixels are ready, as Core Image's do; from Swift
/// concurrency prefer Sepia's `RenderContext` async API.
public final class CIContext: Sendable {
    /// The engine context.
    public let renderContext: RenderContext

    /// A context using every core.
    public init(options: [CIContextOption: Any]? = nil) {
        renderContext = RenderContext()
    }

    /// Renders `rect` (Core Image coordinates) of `image` to 8-bit sRGB RGBA.
    public func createCGImage(_ image: CIImage, from rect: CGRect) -> CGImage? {
        let region = CIImage.engineRect(rect)
        guard !region.isEmpty, !region.isInfinite else { return nil }
        guard let bitmap = try? renderContext.renderBitmapSynchronously(image.image, region: region, layout: .rgba) else { return nil }
        return CGImage(bitmap: bitmap)
    }

    /// Like ``createCGImage(_:from:)``; every format renders as 8-bit RGBA in sRGB.
    public func createCGImage(_ image: CIImage, from rect: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> CGImage? {
        createCGImage(image, from: rect)
    }

    /// The image's extent encoded as JPEG (quality from `kCGImageDestinationLossyCompressionQuality`, default
    /// 0.9), or nil when it cannot be rendered.
    public func jpegRepresentation(of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        let quality = (options[.lossyCompressionQuality] as? Double).map { Int(($0 * 100).rounded()) } ?? 90
        guard let rect = renderRegion(image),
            let bytes = try? ImageEncoding.encodeSynchronously(
                image.image.cropped(to: rect), as: .jpeg, options: EncodeOptions(quality: quality), context: renderContext)
        else { return nil }
        return Data(bytes)
    }

    /// The image's extent encoded as PNG, or nil when it cannot be rendered.
    public func pngRepresentation(
        of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        guard let rect = renderRegion(image),
            let bytes = try? ImageEncoding.encodeSynchronously(image.image.cropped(to: rect), as: .png, context: renderContext)
        else { return nil }
        return Data(bytes)
    }

    /// Writes the JPEG representation to `url`.
    public func writeJPEGRepresentation(
        of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        guard let data = jpegRepresentation(of: image, colorSpace: colorSpace, options: options) else {
            throw CodecError(.encodingFailed, format: .jpeg, "the image cannot be rendered (is its extent infinite?)")
        }
        try AtomicFile.write(Array(data), to: url.path)
    }

    /// Writes the PNG representation to `url`.
    public func writePNGRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        guard let data = pngRepresentation(of: image, format: format, colorSpace: colorSpace, options: options) else {
            throw CodecError(.encodingFailed, format: .png, "the image cannot be rendered (is its extent infinite?)")
        }
        try AtomicFile.write(Array(data), to: url.path)
    }

    private func renderRegion(_ image: CIImage) -> IntRect? {
        let e = image.image.extent
        return e.isInfinite || e.isEmpty ? nil : e
    }
}

/// Options for creating a context (accepted and ignored: Sepia always renders in its linear sRGB working space).
public struct CIContextOption: Hashable, Sendable, RawRepresentable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `kCIContextWorkingColorSpace`.
    public static let workingColorSpace = CIContextOption(rawValue: "kCIContextWorkingColorSpace")
    /// `kCIContextOutputColorSpace`.
    public static let outputColorSpace = CIContextOption(rawValue: "kCIContextOutputColorSpace")
    /// `kCIContextUseSoftwareRenderer`.
    public static let useSoftwareRenderer = CIContextOption(rawValue: "kCIContextUseSoftwareRenderer")
}

/// Options for encoded representations.
public struct CIImageRepresentationOption: Hashable, Sendable, RawRepresentable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// JPEG quality, 0–1 (`kCGImageDestinationLossyCompressionQuality`).
    public static let lossyCompressionQuality = CIImageRepresentationOption(rawValue: "kCGImageDestinationLossyCompressionQuality")
}

/// Pixel formats (Sepia renders 8-bit RGBA).
public struct CIFormat: Hashable, Sendable {
    /// The format's code.
    public let rawValue: Int32
    /// Creates a format.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// 8-bit RGBA.
    public static let RGBA8 = CIFormat(rawValue: 264)
    /// 8-bit BGRA (rendered as RGBA).
    public static let BGRA8 = CIFormat(rawValue: 266)
    /// Half-float RGBA (rendered as 8-bit RGBA).
    public static let RGBAh = CIFormat(rawValue: 2056)
}
