package import ArgumentParser
import Foundation
import SepiaCodecs
package import SepiaImage
import SepiaRAW

/// `sepia apply FILTER FILE… (-o OUT | --out-dir DIR)`.
package struct ApplyCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a Core Image filter to images.",
        discussion: """
            FILTER is a Core Image name (CISepiaTone) or Sepia's name (SepiaTone); `sepia filters` lists them. \
            --intensity maps one 0-1 value onto the filter as Instafilter's slider does: the intensity key gets \
            T, a radius T*200 and a scale T*10, each clamped to the parameter's range. --param sets any \
            parameter by its Core Image key (inputIntensity) or short key (intensity); it wins over --intensity.
            """)

    @Argument(help: "The filter's name (omit it with --recipe), then the image files.", completion: .file())
    var filterAndFiles: [String] = []

    @Option(name: .long, help: "An edit recipe (JSON) to apply instead of one filter.", completion: .file())
    var recipe: String?

    @Option(name: [.customShort("o"), .long], help: "Output file (one input only).", completion: .file())
    var output: String?

    @Option(name: .long, help: "Output folder; outputs keep the input's name.", completion: .directory)
    var outDir: String?

    @Option(name: .long, help: "One 0-1 value mapped onto the filter (Instafilter's slider).")
    var intensity: Double?

    @Option(name: .long, help: "KEY=VALUE; repeat for several parameters. Vectors: 0.6,0.45,0.3,1.")
    var param: [String] = []

    @Flag(name: .long, help: "Print a JSON summary for scripts.")
    var json = false

    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var decoding: DecodingOptions
    @OptionGroup var rendering: RenderingOptions

    /// With --recipe every argument is a file; otherwise the first is the filter.
    package var filter: String { recipe == nil ? filterAndFiles.first ?? "" : "" }
    package var files: [String] { recipe == nil ? Array(filterAndFiles.dropFirst()) : filterAndFiles }

    package init() {}

    package func validate() throws {
        if recipe == nil && filterAndFiles.isEmpty { throw ValidationError("give a filter name and image files, or --recipe FILE") }
        if files.isEmpty { throw ValidationError("give at least one image file") }
        if recipe != nil && (intensity != nil || !param.isEmpty) {
            throw ValidationError("--intensity and --param set one filter; a recipe carries its own parameters")
        }
        try Batch.validateOutputs(output: output, outDir: outDir, inputs: files.count, encoding: encoding)
        if let intensity, !(0...1).contains(intensity) { throw ValidationError("--intensity must be between 0 and 1") }
        _ = try makeFilters()
    }

    /// The filters to apply: the recipe's steps, or the one named filter.
    package func makeFilters() throws -> [any Filter] {
        if let recipe { return try FilterInvocation.loadRecipe(recipe).makeFilters() }
        return [try FilterInvocation.makeFilter(named: filter, intensity: intensity, parameters: param)]
    }

    package func run() async throws {
        let filters = try makeFilters()
        // A recipe that starts with CIRAWFilter develops each RAW file as it says (and refuses other files).
        let loaded = try recipe.map { try FilterInvocation.loadRecipe($0) }
        if let outDir { try Batch.createOutputFolder(outDir) }
        let label = recipe.map { ($0 as NSString).lastPathComponent } ?? filters.first.map { type(of: $0).descriptor.coreImageName } ?? "apply"
        let (output, folder, decodeOptions, encodeOptions) = (output, outDir ?? ".", decoding.decodeOptions, encoding.encodeOptions)
        let chosenFormat = try output.map { try encoding.format(for: $0) }
        let requestedFormat = encoding.format?.imageFormat
        try await Batch.runReporting(files, label: label, json: json, rendering: rendering.renderOptions) { input, context in
            await Batch.convert(
                input, decodeOptions: decodeOptions, encodeOptions: encodeOptions, context: context, output: output, folder: folder,
                format: { chosenFormat ?? requestedFormat ?? ($0.format.isEncodable ? $0.format : .jpeg) },
                image: { file in
                    guard let loaded else { return file.image.applying(filters) }
                    return try PhotoDecoding.base(of: file, for: loaded).image.applying(filters)
                })
        }
    }
}

extension FilterValue {
    /// Parses a command-line value: `true`/`false`, a number, or numbers separated by commas or spaces
    /// (optionally in brackets).
    package init(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "true" || t == "false" {
            self = .bool(t == "true")
        } else if let n = Double(t) {
            self = .number(n)
        } else {
            let inner = t.trimmingCharacters(in: CharacterSet(charactersIn: "[]()"))
            let parts = inner.split(whereSeparator: { $0 == "," || $0 == " " })
            let numbers = parts.compactMap { Double($0) }
            self = numbers.count == parts.count && !parts.isEmpty ? .vector(numbers) : .string(t)
        }
    }
}
