public import SepiaCodecs

/// Limits for reading untrusted RAW files; on by default.
public struct RAWOptions: Sendable, Hashable {
    /// The pixel, side and file-size limits, as for every image.
    public var limits: DecodeOptions
    /// The longest a development (unpacking and demosaicing) may take, in seconds. Default: 60.
    public var developTimeout: Double
    /// The most memory LibRaw may take for the unpacked sensor data, in MiB. Default: 1024.
    public var maximumRawMegabytes: Int

    /// Creates options with the default limits.
    public init(limits: DecodeOptions = DecodeOptions(), developTimeout: Double = 60, maximumRawMegabytes: Int = 1024) {
        self.limits = limits
        self.developTimeout = developTimeout
        self.maximumRawMegabytes = maximumRawMegabytes
    }
}
