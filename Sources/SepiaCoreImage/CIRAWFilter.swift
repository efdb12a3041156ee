public import Foundation
import SepiaCodecs
public import SepiaImage
import SepiaRAW

/// Core Image's RAW developer (`CIRAWFilter`, iOS 15's class API), over LibRaw: open a camera RAW file, set how
/// it is developed, read ``outputImage``.
///
/// ```swift
/// let raw = CIRAWFilter(imageURL: URL(fileURLWithPath: "DSC_0042.NEF"))!
/// raw.exposure = 0.7
/// raw.neutralTemperature = 4800          // starts at the camera's white balance
/// let image = raw.outputImage!           // then filter it like any CIImage
/// ```
/// The parameters are those of a recipe's `CIRAWFilter` step (``RAWDevelopmentStep``), with the same ranges;
/// values outside them are clamped. The output is oriented upright, as Core Image's is.
public final class CIRAWFilter: @unchecked Sendable {
    // Sendable as Core Image's filters are: one thread at a time.
    private let source: RAWSource
    /// The white balance the camera recorded.
    private let asShot: (temperature: Double, tint: Double)?

    /// Opens a RAW file; nil when it is not one LibRaw reads.
    public convenience init?(imageURL url: URL) {
        guard let source = try? RAWSource(path: url.path) else { return nil }
        self.init(source: source)
    }

    /// Opens a RAW file's bytes; nil when they are not one LibRaw reads. The hint (a file name extension or a
    /// type identifier) is used only for files without a signature.
    public convenience init?(imageData data: Data, identifierHint: String?) {
        let bytes = EncodedBytes(data)
        guard let source = try? RAWSource(bytes: bytes, file: identifierHint) else { return nil }
        self.init(source: source)
    }

    private init(source: RAWSource) {
        self.source = source
        asShot = source.asShotNeutral
        neutralTemperature = Float(asShot?.temperature ?? 6504)
        neutralTint = Float(asShot?.tint ?? 0)
    }

    /// The exposure change in EV, −4…4. Default 0.
    public var exposure: Float = 0
    /// How much of the automatic brightness is applied, 0…1. Default 1.
    public var boostAmount: Float = 1
    /// The white's colour temperature in kelvin; starts at the camera's.
    public var neutralTemperature: Float
    /// The white's tint; starts at the camera's.
    public var neutralTint: Float
    /// Noise reduction, 0…1. Default 0.
    public var luminanceNoiseReductionAmount: Float = 0
    /// Whether highlights past the sensor's white are rebuilt rather than clipped. Default false.
    public var isHighlightRecoveryEnabled = false
    /// Whether the output may come from a faster half-size development when that is large enough. Default false.
    public var isDraftModeEnabled = false

    /// The developed image's size before orientation.
    public var nativeSize: CGSize { CGSize(width: source.pixelSize.width, height: source.pixelSize.height) }

    /// The camera's make and model, as LibRaw names them.
    public var cameraModel: String { source.camera }

    /// The development as a recipe's first step.
    public var step: RAWDevelopmentStep {
        var step = RAWDevelopmentStep()
        step.exposure = clamp(Double(exposure), -4, 4)
        step.boostAmount = clamp(Double(boostAmount), 0, 1)
        if let asShot, abs(Double(neutralTemperature) - asShot.temperature) < 0.5, abs(Double(neutralTint) - asShot.tint) < 0.05 {
            step.neutralTemperature = nil
            step.neutralTint = nil
        } else {
            step.neutralTemperature = clamp(Double(neutralTemperature), 2000, 50000)
            step.neutralTint = clamp(Double(neutralTint), -150, 150)
        }
        step.luminanceNoiseReductionAmount = clamp(Double(luminanceNoiseReductionAmount), 0, 1)
        step.highlightRecovery = isHighlightRecoveryEnabled
        return step
    }

    /// The developed image, upright; nil when the file cannot be developed as set.
    public var outputImage: CIImage? {
        var options = source.options
        options.allowsDraftMode = isDraftModeEnabled
        guard let developed = try? source.developing(step, options: options) else { return nil }
        return CIImage(image: Image(source: developed).oriented(developed.orientation))
    }

    private func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { v.isFinite ? min(max(v, lo), hi) : lo }
}
