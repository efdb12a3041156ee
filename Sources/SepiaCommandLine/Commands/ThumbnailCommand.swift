package import ArgumentParser
import SepiaCodecs
package import SepiaImage

/// `sepia thumbnail FILE… --size WxH (-o OUT | --out-dir DIR)`.
package struct ThumbnailCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails: upright, resized with shrink-on-load and Lanczos-3, no metadata.",
        discussion: """
            Modes: fit (inside the size, aspect kept, never upscaled), fill (cover the size, centre crop), \
            stretch (exactly the size). With several files, they are worked on a few at a time so that every \
            core stays busy; a file that fails is reported and the others go on. A video's thumbnail is its \
            poster frame: a Live Photo's still image, else the keyframe nearest 1 s (10 % into a short clip), \
            upright, HDR tone-mapped to sRGB.
            """)

    @Argument(help: "The images, or videos (their poster frame).", completion: .file())
    var files: [String]

    @Option(name: .long, help: "Target size, WxH (or one number for a square).")
    var size: PixelSize

    @Option(name: .long, help: "fit, fill or stretch.")
    var mode: ThumbnailMode = .fit

    @Option(name: [.customShort("o"), .long], help: "Output file (one input only).", completion: .file())
    var output: String?

    @Option(name: .long, help: "Output folder; outputs keep the input's name (JPEG unless --format says otherwise).", completion: .directory)
    var outDir: String?

    @Flag(name: .long, help: "Print a JSON summary for scripts.")
    var json = false

    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var decoding: DecodingOptions
    @OptionGroup var rendering: RenderingOptions

    package init() {}

    package func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one image file") }
        try Batch.validateOutputs(output: output, outDir: outDir, inputs: files.count, encoding: encoding)
    }

    package func run() async throws {
        if let outDir { try Batch.createOutputFolder(outDir) }
        let format = try output.map { try encoding.format(for: $0) } ?? encoding.format?.imageFormat ?? .jpeg
        let (output, folder, decodeOptions, encodeOptions) = (output, outDir ?? ".", decoding.decodeOptions, encoding.encodeOptions)
        let (size, mode) = (size.intSize, mode.contentMode)
        try await Batch.runReporting(files, label: "thumbnail", json: json, rendering: rendering.renderOptions) { input, context in
            await Batch.convert(
                input, decodeOptions: decodeOptions, encodeOptions: encodeOptions, context: context, output: output, folder: folder,
                format: { _ in format }, image: { $0.image.thumbnail(size: size, mode: mode) })
        }
    }
}

/// The content modes, as command-line values.
package enum ThumbnailMode: String, ExpressibleByArgument, CaseIterable {
    case fit, fill, stretch

    package var contentMode: ContentMode {
        switch self {
        case .fit: return .aspectFit
        case .fill: return .aspectFill
        case .stretch: return .scaleToFill
        }
    }
}

/// `WxH` on the command line.
package struct PixelSize: ExpressibleByArgument {
    package let intSize: IntSize

    package init?(argument: String) {
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
package func writeOutput(_ bytes: [UInt8], to path: String) throws {
    do {
        try AtomicFile.write(bytes, to: path)
    } catch {
        Terminal.error("\(error)")
        throw ReportedFailure(code: ExitStatus.cannotCreate)
    }
}
