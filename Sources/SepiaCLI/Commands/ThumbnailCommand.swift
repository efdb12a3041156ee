import ArgumentParser
import SepiaCodecs
import SepiaImage

/// `sepia thumbnail FILE --size WxH -o OUT`.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make a thumbnail: upright, resized with shrink-on-load and Lanczos-3, no metadata.",
        discussion: """
            Modes: fit (inside the size, aspect kept, never upscaled), fill (cover the size, centre crop), \
            stretch (exactly the size).
            """)

    @Argument(help: "The image.", completion: .file())
    var file: String

    @Option(name: .long, help: "Target size, WxH (or one number for a square).")
    var size: PixelSize

    @Option(name: .long, help: "fit, fill or stretch.")
    var mode: ThumbnailMode = .fit

    @Option(name: [.customShort("o"), .long], help: "Output file.", completion: .file())
    var output: String

    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var decoding: DecodingOptions
    @OptionGroup var rendering: RenderingOptions

    func validate() throws {
        _ = try encoding.format(for: output)
    }

    func run() async throws {
        try await reportingErrors {
            let format = try encoding.format(for: output)
            let context = RenderContext(options: rendering.renderOptions)
            let file = try ImageDecoding.open(path: file, options: decoding.decodeOptions)
            let image = file.image.thumbnail(size: size.intSize, mode: mode.contentMode)
            let bytes: [UInt8]
            do {
                bytes = try await ImageEncoding.encode(image, as: format, options: encoding.encodeOptions, context: context)
            } catch let error as CodecError where error.file == nil {
                throw error.inFile(self.file)
            }
            for warning in file.decodeWarnings.all { Terminal.warning("\(self.file): \(warning)") }
            try writeOutput(bytes, to: output)
        }
    }
}

/// The content modes, as command-line values.
enum ThumbnailMode: String, ExpressibleByArgument, CaseIterable {
    case fit, fill, stretch

    var contentMode: ContentMode {
        switch self {
        case .fit: return .aspectFit
        case .fill: return .aspectFill
        case .stretch: return .scaleToFill
        }
    }
}

/// `WxH` on the command line.
struct PixelSize: ExpressibleByArgument {
    let intSize: IntSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 1, let side = Int(parts[0]), side > 0, side <= 65_535 {
            intSize = IntSize(width: side, height: side)
        } else if parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 65_535, h <= 65_535 {
            intSize = IntSize(width: w, height: h)
        } else {
            return nil
        }
    }
}

/// Writes an output atomically; failures exit with 73.
func writeOutput(_ bytes: [UInt8], to path: String) throws {
    do {
        try AtomicFile.write(bytes, to: path)
    } catch {
        Terminal.error("\(error)")
        throw ReportedFailure(code: ExitStatus.cannotCreate)
    }
}
