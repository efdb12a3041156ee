import ArgumentParser
import Foundation
import SepiaCodecs
import SepiaImage

/// `sepia apply FILTER FILE… (-o OUT | --out-dir DIR)`.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
    var filter: String { recipe == nil ? filterAndFiles.first ?? "" : "" }
    var files: [String] { recipe == nil ? Array(filterAndFiles.dropFirst()) : filterAndFiles }

    func validate() throws {
        if recipe == nil && filterAndFiles.isEmpty { throw ValidationError("give a filter name and image files, or --recipe FILE") }
        if files.isEmpty { throw ValidationError("give at least one image file") }
        if recipe != nil && (intensity != nil || !param.isEmpty) {
            throw ValidationError("--intensity and --param set one filter; a recipe carries its own parameters")
        }
        switch (output, outDir) {
        case (nil, nil): throw ValidationError("give an output: -o FILE for one image, or --out-dir DIR")
        case (.some, .some): throw ValidationError("-o and --out-dir cannot be used together")
        case (.some(let out), nil):
            if files.count > 1 { throw ValidationError("-o takes one input; use --out-dir for several") }
            _ = try encoding.format(for: out)
        default: break
        }
        if let intensity, !(0...1).contains(intensity) { throw ValidationError("--intensity must be between 0 and 1") }
        _ = try makeFilters()
    }

    /// The filters to apply: the recipe's steps, or the one named filter.
    func makeFilters() throws -> [any Filter] {
        if let recipe { return try FilterInvocation.loadRecipe(recipe).makeFilters() }
        return [try FilterInvocation.makeFilter(named: filter, intensity: intensity, parameters: param)]
    }

    private func outputPath(for input: String, format: ImageFormat?) throws -> (String, ImageFormat) {
        if let output { return (output, try encoding.format(for: output)) }
        let dir = outDir ?? "."
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let chosen = format ?? .jpeg
        return ((dir as NSString).appendingPathComponent(base + "." + chosen.fileExtension), chosen)
    }

    struct Outcome: Encodable {
        let file: String
        var output: String?
        var status: String
        var error: String?
        var warnings: [String] = []
    }

    func run() async throws {
        let filters = try makeFilters()
        if let outDir {
            do {
                try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
            } catch {
                Terminal.error("cannot create the output folder \(outDir): \(error.localizedDescription)")
                throw ExitCode(ExitStatus.cannotCreate)
            }
        }
        let context = RenderContext(options: rendering.renderOptions)
        let label = recipe.map { ($0 as NSString).lastPathComponent } ?? filters.first.map { type(of: $0).descriptor.coreImageName } ?? "apply"
        let progress = ProgressBar(total: files.count, label: label, enabled: Terminal.isInteractive && !json)
        var outcomes: [Outcome] = []
        var worst: Int32 = 0
        for input in files {
            var outcome = Outcome(file: input, status: "ok")
            do {
                let source = try ImageDecoding.open(path: input, options: decoding.decodeOptions)
                let preferred = encoding.format?.imageFormat ?? (source.format.isEncodable ? source.format : .jpeg)
                let (path, format) = try outputPath(for: input, format: preferred)
                let image = source.image.applying(filters)
                let bytes: [UInt8]
                do {
                    bytes = try await ImageEncoding.encode(image, as: format, options: encoding.encodeOptions, context: context)
                } catch let error as CodecError where error.file == nil {
                    throw error.inFile(input)
                }
                outcome.warnings = source.decodeWarnings.all
                do {
                    try AtomicFile.write(bytes, to: path)
                } catch {
                    outcome.status = "error"
                    outcome.error = "\(error)"
                    worst = max(worst, ExitStatus.cannotCreate)
                }
                outcome.output = path
            } catch {
                outcome.status = "error"
                outcome.error = "\(error)"
                worst = max(worst, ExitStatus.code(for: error))
            }
            progress.advance(input)
            if !json {
                if let error = outcome.error {
                    progress.finish()
                    Terminal.error(error)
                }
                for warning in outcome.warnings { Terminal.warning("\(input): \(warning)") }
            }
            outcomes.append(outcome)
        }
        progress.finish()
        let failed = outcomes.filter { $0.status != "ok" }.count
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.print(String(decoding: try encoder.encode(outcomes), as: UTF8.self))
        } else if files.count > 1 {
            Terminal.printError("\(files.count - failed) of \(files.count) images written" + (failed > 0 ? ", \(failed) failed" : ""))
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}

extension FilterValue {
    /// Parses a command-line value: `true`/`false`, a number, or numbers separated by commas or spaces
    /// (optionally in brackets).
    init(parsing text: String) {
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
