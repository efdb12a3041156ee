package import ArgumentParser
import Foundation
import SepiaCodecs
package import SepiaImage

/// `sepia strip FILE --size 150x150 (--out-dir DIR | --sheet OUT)`: the Photo Filter screen's strip.
package struct StripCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "strip",
        abstract: "Render a photo through every catalog filter as thumbnails (the LetsEat filter strip).",
        discussion: """
            The photo is decoded once (shrinking on load) and every filter runs on the small image. The catalog is \
            the LetsEat app's FilterData.plist unless --catalog names another property list; --instafilter uses \
            Instafilter's seven filters. --out-dir writes one file per entry (NN-Name.jpg); --sheet writes one \
            contact-sheet image with each filter's name under its thumbnail.
            """)

    @Argument(help: "The photo.", completion: .file())
    var file: String

    @Option(name: .long, help: "Thumbnail size, WxH.")
    var size: PixelSize = PixelSize(argument: "150x150")!

    @Option(name: .long, help: "fit, fill or stretch.")
    var mode: ThumbnailMode = .fit

    @Option(name: .long, help: "Folder for one thumbnail per filter.", completion: .directory)
    var outDir: String?

    @Option(name: .long, help: "One contact-sheet image with every thumbnail and its name.", completion: .file())
    var sheet: String?

    @Option(name: .long, help: "A filter catalog property list (an array of {filter, name}).", completion: .file())
    var catalog: String?

    @Flag(name: .long, help: "Use Instafilter's seven filters instead of the catalog.")
    var instafilter = false

    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var decoding: DecodingOptions
    @OptionGroup var rendering: RenderingOptions

    package init() {}

    package func validate() throws {
        if outDir == nil && sheet == nil { throw ValidationError("give --out-dir DIR, --sheet OUT, or both") }
        if let sheet { _ = try encoding.format(for: sheet) }
        if instafilter && catalog != nil { throw ValidationError("--instafilter and --catalog cannot be used together") }
    }

    package func items() throws -> [FilterItem] {
        if instafilter { return FilterCatalog.instafilter }
        if let catalog {
            return try FilterCatalog.load(propertyList: try Data(contentsOf: URL(fileURLWithPath: catalog)))
        }
        return try FilterCatalog.bundled()
    }

    package func run() async throws {
        try await reportingErrors {
            let items = try self.items()
            let context = RenderContext(options: rendering.renderOptions)
            let source = try Inputs.open(path: file, options: decoding.decodeOptions).file
            let thumbnails: [FilterStrip.Thumbnail]
            do {
                thumbnails = try await FilterStrip.render(source.image, items: items, size: size.intSize, mode: mode.contentMode, context: context)
            } catch let error as CodecError where error.file == nil {
                throw error.inFile(file)
            }
            if let outDir {
                do {
                    try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
                } catch {
                    Terminal.error("cannot create the output folder \(outDir): \(error.localizedDescription)")
                    throw ReportedFailure(code: ExitStatus.cannotCreate)
                }
                let format = encoding.format?.imageFormat ?? .jpeg
                for (n, thumbnail) in thumbnails.enumerated() {
                    let name = String(format: "%02d-", n) + thumbnail.item.name.filter { $0.isLetter || $0.isNumber || $0 == "-" }
                    let path = (outDir as NSString).appendingPathComponent(name + "." + format.fileExtension)
                    try writeOutput(try ImageEncoding.encode(thumbnail.bitmap, as: format, options: encoding.encodeOptions), to: path)
                }
            }
            if let sheet {
                let format = try encoding.format(for: sheet)
                let bitmap = ContactSheet.compose(thumbnails, cell: size.intSize)
                try writeOutput(try ImageEncoding.encode(bitmap, as: format, options: encoding.encodeOptions), to: sheet)
            }
        }
    }
}
