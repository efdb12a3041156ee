public import Foundation
import SepiaCodecs
public import SepiaImage
import SepiaRAW

/// Core Image's image recipe (`CIImage`), spelled over Sepia's ``Image``.
///
/// Core Image's coordinates have their origin at the bottom-left with y pointing up; Sepia's engine has y
/// pointing down. A `CIImage` keeps Core Image's geometry: its ``extent`` and every rectangle, point and
/// transform it is given are in y-up coordinates, mapped to the engine by the flip `(x, y) ↦ (x, −y)`.
///
/// Differences from Core Image: blurs keep the input's extent (edges are clamped, not faded), and decoded images
/// are converted to sRGB.
public final class CIImage: @unchecked Sendable {
    // Sendable: immutable.
    /// The engine image, in flipped (y-down) coordinates.
    public let image: Image
    /// File properties of a decoded image (`"Orientation"`, `"PixelWidth"`, `"PixelHeight"`).
    public let properties: [String: Any]

    /// Wraps an engine image whose coordinates are already flipped.
    init(flipped image: Image, properties: [String: Any] = [:]) {
        self.image = image
        self.properties = properties
    }

    /// Wraps an engine image with its top-left at the engine origin; its Core Image extent starts at (0, 0).
    public convenience init(image: Image) {
        let upright = image.movedToOrigin()
        self.init(flipped: upright.translatedBy(dx: 0, dy: -upright.extent.height))
    }

    /// An image of rendered pixels.
    public convenience init(cgImage: CGImage) {
        self.init(image: Image(bitmap: cgImage.bitmap))
    }

    /// Decodes JPEG, PNG, WebP, HEIC, AVIF, TIFF or camera RAW data (RAW with its default development; use
    /// ``CIRAWFilter`` to change it). Like Core Image, the EXIF orientation is recorded in ``properties`` but not
    /// applied unless `options` sets `.applyOrientationProperty` to true.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        guard let file = try? PhotoDecoding.open(EncodedBytes(data)) else { return nil }
        self.init(file: file, options: options)
    }

    /// Decodes a file.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        guard let file = try? PhotoDecoding.open(path: url.path) else { return nil }
        self.init(file: file, options: options)
    }

    private convenience init(file: any EncodedImage, options: [CIImageOption: Any]?) {
        let apply = (options?[.applyOrientationProperty] as? Bool) ?? false
        let base = apply ? Image(source: file).oriented(file.orientation) : Image(source: file)
        let properties: [String: Any] = [
            "Orientation": file.orientation.rawValue, "PixelWidth": file.pixelSize.width, "PixelHeight": file.pixelSize.height,
        ]
        self.init(flipped: base.translatedBy(dx: 0, dy: -base.extent.height), properties: properties)
    }

    /// An infinite image of one colour.
    public convenience init(color: CIColor) {
        self.init(flipped: Image(color: color.workingSpace))
    }

    /// An empty image.
    public static func empty() -> CIImage { CIImage(flipped: .empty) }

    // MARK: - Geometry

    /// The extent in Core Image coordinates (y up); infinite for generated and clamped images.
    public var extent: CGRect { Self.ciRect(image.extent) }

    /// The part inside `rect` (Core Image coordinates).
    public func cropped(to rect: CGRect) -> CIImage {
        CIImage(flipped: image.cropped(to: Self.engineRect(rect)), properties: properties)
    }

    /// The image extended infinitely by repeating its edges.
    public func clampedToExtent() -> CIImage {
        CIImage(flipped: image.clampedToExtent(), properties: properties)
    }

    /// The image transformed by `matrix` (Core Image coordinates).
    public func transformed(by matrix: CGAffineTransform) -> CIImage {
        CIImage(flipped: image.transformed(by: Self.engineMatrix(matrix)), properties: properties)
    }

    /// The image turned by an EXIF orientation; the extent keeps its origin.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return self }
        let turned = image.movedToOrigin().oriented(Orientation(exifValue: Int(orientation.rawValue)))
        // Keep the Core Image origin (bottom-left corner) where it was.
        let bottom = e.maxY
        return CIImage(flipped: turned.translatedBy(dx: e.minX, dy: bottom - turned.extent.height), properties: properties)
    }

    /// The image turned by an EXIF orientation value (1–8).
    public func oriented(forExifOrientation value: Int32) -> CIImage {
        oriented(CGImagePropertyOrientation(rawValue: UInt32(max(1, min(8, value)))) ?? .up)
    }

    // MARK: - Filters

    /// The output of the filter `name` with this image as input and `parameters`.
    public func applyingFilter(_ name: String, parameters: [String: Any] = [:]) -> CIImage {
        guard let filter = CIFilter(name: name) else { return CIImage.empty() }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in parameters { filter.setValue(value, forKey: key) }
        return filter.outputImage ?? CIImage.empty()
    }

    /// A Gaussian blur of σ = `sigma` (unchanged below 0.16). Unlike Core Image, the extent is kept.
    public func applyingGaussianBlur(sigma: Double) -> CIImage {
        CIImage(flipped: image.applying(GaussianBlur(radius: Float(sigma))), properties: properties)
    }

    // MARK: - Coordinates

    static func ciRect(_ r: IntRect) -> CGRect {
        if r.isInfinite { return .infinite }
        if r.isEmpty { return .null }
        return CGRect(x: CGFloat(r.minX), y: CGFloat(-r.maxY), width: CGFloat(r.width), height: CGFloat(r.height))
    }

    static func engineRect(_ r: CGRect) -> IntRect {
        if r.isInfinite || r.width > 1e15 || r.height > 1e15 { return .infinite }
        if r.isNull || r.isEmpty { return .zero }
        let x0 = Int(r.minX.rounded(.down)), x1 = Int(r.maxX.rounded(.up))
        let y0 = Int((-r.maxY).rounded(.down)), y1 = Int((-r.minY).rounded(.up))
        return IntRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    /// `F · T · F` with `F` the flip `(x, y) ↦ (x, −y)`.
    static func engineMatrix(_ t: CGAffineTransform) -> AffineMatrix {
        AffineMatrix(a: t.a, b: -t.b, c: -t.c, d: t.d, tx: t.tx, ty: -t.ty)
    }

    static func ciMatrix(_ m: AffineMatrix) -> CGAffineTransform {
        CGAffineTransform(a: m.a, b: -m.b, c: -m.c, d: m.d, tx: m.tx, ty: -m.ty)
    }
}

/// Options for creating images.
public struct CIImageOption: Hashable, Sendable, RawRepresentable {
    /// The option's name.
    public let rawValue: String
    /// Creates an option.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Apply the file's EXIF orientation.
    public static let applyOrientationProperty = CIImageOption(rawValue: "kCIImageApplyOrientationProperty")
}
