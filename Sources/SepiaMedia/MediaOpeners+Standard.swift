public import SepiaCodecs
import SepiaRAW
public import SepiaVideo

extension MediaOpeners {
    /// Every kind of media Sepia reads, in the order files are offered to them: camera RAW first (it claims a
    /// TIFF named like a RAW file, and passes it on when LibRaw does not take it), then the still-image codecs,
    /// then videos. A new kind is one more opener here.
    ///
    /// - Parameters:
    ///   - decoding: The limits photos and RAW files are opened with.
    ///   - video: The limits videos are opened with.
    public init(decoding: DecodeOptions = DecodeOptions(), video: VideoOptions = VideoOptions()) {
        self.init([
            RAWOpener(options: RAWOptions(limits: decoding)),
            StillImageOpener(options: decoding),
            VideoOpener(options: video),
        ])
    }

    /// Every kind with its default limits: what asks only what a format is, not to open a file.
    public static let standard = MediaOpeners()
}
