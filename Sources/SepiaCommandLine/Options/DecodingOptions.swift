package import ArgumentParser
import Foundation
package import SepiaCodecs
package import SepiaImage

/// Limits and strictness for the inputs of a command.
package struct DecodingOptions: ParsableArguments {
    @Option(name: .long, help: "Refuse images with more pixels than this (default 100000000).")
    package var maxPixels: Int = 100_000_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Memory each decode may set aside for the buffers a file's header declares (tiles, strips, coefficients), in bytes.",
            discussion: "Default: the image's own 16-bit RGBA frame, at least 64 MiB, at most --max-pixels × 8 bytes."))
    package var maxDecodeBytes: Int?

    @Flag(name: .long, help: "Refuse damaged files that would decode with grey or garbled areas, instead of warning.")
    package var strict = false

    package var decodeOptions: DecodeOptions {
        DecodeOptions(maximumPixels: maxPixels, strict: strict, maximumDecodeBytes: maxDecodeBytes)
    }

    package init() {}

    package func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        if let maxDecodeBytes, maxDecodeBytes <= 0 { throw ValidationError("--max-decode-bytes must be positive") }
    }
}

/// Rendering options shared by commands that render.
package struct RenderingOptions: ParsableArguments {
    @Option(name: .long, help: "Worker threads (default: one per core).")
    package var threads: Int?

    @Option(name: .long, help: ArgumentHelp("Rows per rendered strip.", visibility: .hidden))
    package var tileHeight: Int?

    package var renderOptions: RenderOptions {
        RenderOptions(threadCount: threads, tileHeight: tileHeight)
    }

    package init() {}

    package func validate() throws {
        if let threads, threads < 1 || threads > 256 { throw ValidationError("--threads must be between 1 and 256") }
    }
}

/// Where and how an output is written.
package struct EncodingOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: jpeg, png or webp (default: from the output's extension).")
    package var format: OutputFormat?

    @Option(name: .long, help: "JPEG/WebP quality, 1-100.")
    package var quality: Int = 85

    @Flag(name: .long, help: "Encode WebP losslessly.")
    package var lossless = false

    package var encodeOptions: EncodeOptions {
        EncodeOptions(quality: quality, lossless: lossless)
    }

    package init() {}

    package func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
    }

    /// The format for an output at `path`: `--format`, else the path's extension.
    package func format(for path: String) throws -> ImageFormat {
        if let format { return format.imageFormat }
        let ext = (path as NSString).pathExtension
        guard let inferred = ImageFormat(fileExtension: ext), inferred.isEncodable else {
            throw ValidationError(
                "cannot tell the output format from '\(path)'; use --format jpeg|png|webp or an output name ending in .jpg, .png or .webp")
        }
        return inferred
    }
}

/// The formats Sepia writes, as command-line values.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jpeg, jpg, png, webp

    package var imageFormat: ImageFormat {
        switch self {
        case .jpeg, .jpg: return .jpeg
        case .png: return .png
        case .webp: return .webp
        }
    }
}
