package import ArgumentParser
import SepiaCodecs
import SepiaImage

/// `sepia convert FILE -o OUT`: decode, orient, convert to sRGB, re-encode.
package struct ConvertCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Re-encode an image upright, in sRGB, without metadata.")

    @Argument(help: "The image.", completion: .file())
    var file: String

    @Option(name: [.customShort("o"), .long], help: "Output file.", completion: .file())
    var output: String

    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var decoding: DecodingOptions
    @OptionGroup var rendering: RenderingOptions

    package init() {}

    package func validate() throws {
        _ = try encoding.format(for: output)
    }

    package func run() async throws {
        try await reportingErrors {
            let format = try encoding.format(for: output)
            let context = RenderContext(options: rendering.renderOptions)
            let source = try Inputs.open(path: file, options: decoding.decodeOptions).file
            let bytes: [UInt8]
            do {
                bytes = try await ImageEncoding.encode(source.image, as: format, options: encoding.encodeOptions, context: context)
            } catch let error as CodecError where error.file == nil {
                throw error.inFile(file)
            }
            for warning in source.decodeWarnings.all { Terminal.warning("\(file): \(warning)") }
            try writeOutput(bytes, to: output)
        }
    }
}
