public import SepiaCodecs

/// Limits for reading untrusted RAW files; on by default.
public struct RAWOptions: Sendable, Hashable {
    /// The pixel, side and file-size limits, as for every image.
    public var limits: DecodeOptions
    /// The longest a development (unpacking and demosaicing) may take, in seconds. Default: 60.
    public var developTimeout: Double
    /// The most memory LibRaw may take for the unpacked sensor data, in MiB. Default: 1024.
    public var maximumRawMegabytes: Int

    /// Whether a render may use LibRaw's half-size development (each 2×2 block of sensor pixels becomes one
    /// pixel, without demosaicing) whenever it is at least the size asked, as `CIRAWFilter`'s draft mode does
    /// for interactive previews. Default false: half size only when it is at least twice the size asked, so that
    /// the result is as sharp as the full development resized.
    public var allowsDraftMode: Bool

    /// Creates options with the default limits.
    public init(
        limits: DecodeOptions = DecodeOptions(), developTimeout: Double = 60, maximumRawMegabytes: Int = 1024, allowsDraftMode: Bool = false
    ) {
        self.allowsDraftMode = allowsDraftMode
        self.limits = limits
        self.developTimeout = developTimeout
        self.maximumRawMegabytes = maximumRawMegabytes
    }
}
