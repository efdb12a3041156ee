import ArgumentParser
import Foundation
package import SepiaCodecs
package import SepiaImage

/// Runs one job per input, a few at a time, so that every core stays busy across files, not only within one.
/// At most `concurrency` files are in memory at once; results come back in input order.
///
/// Each file in flight renders on a lane (``RenderLanes``): a render context with its share of the threads,
/// so that a whole-frame decode (libpng, libwebp, libheif) of one file does not hold up the others.
package enum Batch {
    /// How many files the batch commands work on at once: one per core, at least two so that reading one
    /// file overlaps writing another.
    package static var defaultConcurrency: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The lanes for `inputs` files: one context with every thread for a single file, else `concurrency`
    /// contexts sharing the threads.
    package static func lanes(inputs: Int, options: RenderOptions, concurrency: Int = defaultConcurrency) -> RenderLanes {
        RenderLanes(count: min(max(1, inputs), concurrency), options: options)
    }

    /// Runs `job` on every input with a free lane, calling `completed` (on the caller's task, one at a time)
    /// as each finishes, and returns the results in input order.
    package static func run<Result: Sendable>(
        _ inputs: [String], lanes: RenderLanes, job: @escaping @Sendable (String, RenderContext) async -> Result,
        completed: (String, Result) -> Void
    ) async -> [Result] {
        var results = [Result?](repeating: nil, count: inputs.count)
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func start() {
                let (index, input) = (next, inputs[next])
                group.addTask { (index, await lanes.withLane { await job(input, $0) }) }
                next += 1
            }
            while next < inputs.count && next < lanes.count { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                completed(inputs[index], result)
                if next < inputs.count { start() }
            }
        }
        return results.map { $0! }
    }
}

/// What happened to one input of a batch command, as `--json` prints it.
package struct BatchOutcome: Encodable, Sendable {
    package let file: String
    package var output: String?
    package var status = "ok"
    package var error: String?
    package var warnings: [String] = []
    /// The exit status this outcome calls for (0 when it went well); not printed.
    package var exitStatus: Int32 = 0

    package enum CodingKeys: String, CodingKey {
        case file, output, status, error, warnings
    }

    package init(file: String) {
        self.file = file
    }

    /// Records a failure and the exit status it calls for.
    package mutating func fail(_ error: any Error, status: Int32? = nil) {
        self.status = "error"
        self.error = "\(error)"
        exitStatus = status ?? ExitStatus.code(for: error)
    }
}

extension Batch {
    /// Runs a batch command's jobs with a progress bar, prints each failure and warning as it happens, then the
    /// `--json` summary or a count; throws the worst exit status.
    package static func runReporting(
        _ inputs: [String], label: String, json: Bool, rendering: RenderOptions,
        job: @escaping @Sendable (String, RenderContext) async -> BatchOutcome
    ) async throws {
        let progress = ProgressBar(total: inputs.count, label: label, enabled: Terminal.isInteractive && !json)
        let lanes = lanes(inputs: inputs.count, options: rendering)
        let outcomes = await run(inputs, lanes: lanes, job: job) { input, outcome in
            progress.advance(input)
            guard !json else { return }
            if let error = outcome.error {
                progress.finish()
                Terminal.error(error)
            }
            for warning in outcome.warnings { Terminal.warning("\(input): \(warning)") }
        }
        progress.finish()
        let failed = outcomes.filter { $0.status != "ok" }.count
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.print(String(decoding: try encoder.encode(outcomes), as: UTF8.self))
        } else if inputs.count > 1 {
            Terminal.printError("\(inputs.count - failed) of \(inputs.count) images written" + (failed > 0 ? ", \(failed) failed" : ""))
        }
        let worst = outcomes.map(\.exitStatus).max() ?? 0
        if worst != 0 { throw ExitCode(worst) }
    }

    /// Checks a batch command's outputs: `-o FILE` for one input (with a format it can tell), or `--out-dir`.
    package static func validateOutputs(output: String?, outDir: String?, inputs: Int, encoding: EncodingOptions) throws {
        switch (output, outDir) {
        case (nil, nil): throw ValidationError("give an output: -o FILE for one image, or --out-dir DIR")
        case (.some, .some): throw ValidationError("-o and --out-dir cannot be used together")
        case (.some(let out), nil):
            if inputs > 1 { throw ValidationError("-o takes one input; use --out-dir for several") }
            _ = try encoding.format(for: out)
        default: break
        }
    }

    /// Creates a batch command's output folder, or exits saying why not.
    package static func createOutputFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            Terminal.error("cannot create the output folder \(path): \(error.localizedDescription)")
            throw ExitCode(ExitStatus.cannotCreate)
        }
    }

    /// One file of a batch: decodes `input`, makes the image to write from it, encodes it in the format
    /// chosen for it and writes it atomically to `output`, or to `folder` under the input's name.
    package static func convert(
        _ input: String, decodeOptions: DecodeOptions, encodeOptions: EncodeOptions, context: RenderContext, output: String?,
        folder: String, format: (any EncodedImage) -> ImageFormat, image: (any EncodedImage) throws -> Image
    ) async -> BatchOutcome {
        var outcome = BatchOutcome(file: input)
        do {
            let file = try Inputs.open(path: input, options: decodeOptions).file
            let format = format(file)
            let path = output ?? outputPath(for: input, in: folder, format: format)
            let bytes: [UInt8]
            do {
                bytes = try await ImageEncoding.encode(try image(file), as: format, options: encodeOptions, context: context)
            } catch let error as CodecError where error.file == nil {
                throw error.inFile(input)
            }
            outcome.warnings = file.decodeWarnings.all
            outcome.output = path
            do {
                try AtomicFile.write(bytes, to: path)
            } catch {
                outcome.fail(error, status: ExitStatus.cannotCreate)
            }
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// Where an input's output goes in `folder`: its name with the output format's extension.
    package static func outputPath(for input: String, in folder: String, format: ImageFormat) -> String {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        return (folder as NSString).appendingPathComponent(base + "." + format.fileExtension)
    }
}
