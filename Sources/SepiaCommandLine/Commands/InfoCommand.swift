package import ArgumentParser
import Foundation
package import SepiaCodecs
import SepiaImage

/// `sepia info FILE…`: format, sizes, orientation, colour and metadata, read from headers only.
package struct InfoCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show format, size, orientation, colour profile and EXIF metadata of image files (and of videos).",
        discussion: """
            Only headers are read; add --verify to decode the pixels too, strictly as an upload does: a damaged file \
            makes the command exit with 65, as an unreadable one does. Videos (MP4, MOV, 3GP, \
            MKV, WebM, AVI, MPEG-TS) are recognised by their bytes and described by sepia-library: streams, \
            duration, HDR, capture date, camera, location and Live Photo identity; --verify decodes their poster.
            """)

    @Argument(help: "Image or video files.", completion: .file())
    var files: [String]

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @Flag(name: .long, help: "Decode every image completely and strictly, to find damaged data (exit status 65 when some is).")
    var verify = false

    @OptionGroup var decoding: DecodingOptions

    package init() {}

    package func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one image file") }
    }

    package func run() async throws {
        var reports: [FileReport] = []
        var worst: Int32 = 0
        let context = RenderContext()
        for path in files {
            var report: FileReport
            do {
                // Verifying decodes as an upload does, strictly: damage the decoder would repair (a cut JPEG padded
                // with grey, a TIFF strip that cannot be read) fails the file, harmless anomalies stay warnings.
                var options = decoding.decodeOptions
                if verify { options.strict = true }
                let opened = try Inputs.open(path: path, options: options)
                let file = opened.file
                report = FileReport(path: path, file: file)
                report.video = opened.json
                report.extraLines = opened.details
                if verify {
                    _ = try await context.renderBitmap(Image(source: file))
                    report.warnings += file.decodeWarnings.all
                }
            } catch {
                report = FileReport(path: path, error: error)
                worst = max(worst, ExitStatus.code(for: error))
            }
            reports.append(report)
            if !json { Terminal.print(report.text) }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            let data = try encoder.encode(reports)
            Terminal.print(String(decoding: data, as: UTF8.self))
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}

/// What `info` reports about one file.
package struct FileReport: Encodable {
    package struct Size: Encodable {
        let width: Int
        let height: Int
    }

    package struct Failure: Encodable {
        let code: String
        let message: String
    }

    package let file: String
    package var format: String?
    package var mimeType: String?
    package var storedSize: Size?
    package var size: Size?
    package var orientation: Int?
    package var colorSpace: String?
    package var hasAlpha: Bool?
    package var details: [String]?
    package var metadata: ImageMetadata?
    /// A video's streams, duration and Live Photo identity (`VideoInfo` as JSON), when the file is a video.
    package var video: EncodableValue?
    package var warnings: [String] = []
    package var error: Failure?
    /// Further lines for people (a video's), after the image's.
    package var extraLines: [ReportLine] = []

    package enum CodingKeys: String, CodingKey {
        case file, format, mimeType, storedSize, size, orientation, colorSpace, hasAlpha, details, metadata, video, warnings, error
    }

    package init(path: String, file: any EncodedImage) {
        self.file = path
        format = file.format.rawValue
        mimeType = file.format.mimeType
        storedSize = Size(width: file.pixelSize.width, height: file.pixelSize.height)
        size = Size(width: file.displaySize.width, height: file.displaySize.height)
        orientation = file.orientation.rawValue
        colorSpace = file.colorSpace
        hasAlpha = file.hasAlpha
        details = file.details
        metadata = file.metadata
        warnings = file.metadata.warnings
    }

    package init(path: String, error: any Error) {
        file = path
        let code = (error as? CodecError)?.code.rawValue ?? "error"
        let message =
            (error as? CodecError).map { e in
                var copy = e; copy.file = nil; return copy.description
            } ?? "\(error)"
        self.error = Failure(code: code, message: message)
    }

    /// The report as lines for people.
    package var text: String {
        var lines = [file]
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        if let error {
            add("error", error.message)
            return lines.joined(separator: "\n")
        }
        let formatName = format.flatMap(ImageFormat.init(rawValue:))?.description ?? format
        add("format", [formatName, details.map { "(" + $0.joined(separator: ", ") + ")" }].compactMap { $0 }.joined(separator: " "))
        if let size, let storedSize {
            var text = "\(size.width)x\(size.height)"
            if let orientation, orientation != 1 {
                text += " (stored \(storedSize.width)x\(storedSize.height), orientation \(Orientation(exifValue: orientation)))"
            }
            add("size", text)
        }
        add("colour", colorSpace.map { $0 + (hasAlpha == true ? " with alpha" : "") })
        if let m = metadata {
            add("captured", m.captureDate.map { "\($0) (\($0.origin.rawValue))" })
            add("camera", [m.cameraMake, m.cameraModel].compactMap { $0 }.joined(separator: " "))
            add("lens", [m.lensMake, m.lensModel].compactMap { $0 }.joined(separator: " "))
            var exposure: [String] = []
            if let t = m.exposureTime { exposure.append(t < 1 && t > 0 ? "1/\(Int((1 / t).rounded())) s" : String(format: "%.1f s", t)) }
            if let f = m.fNumber { exposure.append(String(format: "f/%.1f", f)) }
            if let iso = m.iso { exposure.append("ISO \(iso)") }
            if let mm = m.focalLength { exposure.append(String(format: "%.1f mm", mm)) }
            add("exposure", exposure.joined(separator: ", "))
            add("location", m.location.map { loc in loc.description + (loc.altitude.map { String(format: ", %.0f m", $0) } ?? "") })
            add("gps time", m.gpsDate?.description)
            add("software", m.software)
            add("live photo", m.contentIdentifier.map { "content identifier \($0)" })
        }
        for line in extraLines { add(line.label, line.value) }
        for warning in warnings { add("warning", warning) }
        return lines.joined(separator: "\n")
    }
}
