import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary
import SepiaVision
import Synchronization

/// "1 face", "2 faces".
private func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) \(count == 1 ? singular : plural)"
}

/// `sepia faces [status|index|people|name|on|off]`: People from the command line.
struct FacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Find the faces in the library and group them into people.",
        discussion: """
            Faces are found on this machine with dlib (Debian's libdlib) and dlib's public-domain models, which \
            scripts/setup installs (or scripts/face-models; SEPIA_FACE_MODELS or --face-models names another folder); \
            nothing is downloaded. Each photo, Live Photo, RAW file and video poster is searched as it is shown, edits \
            included; faces are grouped into people as they are found, and a person is listed once they have 3 faces \
            or a name. `sepia serve` indexes in the background; `sepia faces index` does it now. `sepia faces off` \
            deletes every face and name and stops finding them.
            """,
        subcommands: [Status.self, Index.self, People.self, Name.self, TurnOn.self, TurnOff.self],
        defaultSubcommand: Status.self)

    /// `sepia faces status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Say how far indexing has come and what it found.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json)
                defer { photos.close() }
                let status = try photos.faceIndexStatus(algorithm: FaceIndexing.algorithm)
                let enabled = try photos.findsFaces()
                let modelsInstalled = FaceModels.default.areInstalled
                if json {
                    struct Report: Encodable {
                        var status: FaceIndexStatus
                        var enabled: Bool
                        var modelsInstalled: Bool
                        var models: String
                    }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    let data = try encoder.encode(
                        Report(status: status, enabled: enabled, modelsInstalled: modelsInstalled, models: FaceModels.defaultDirectory))
                    Terminal.print(String(decoding: data, as: UTF8.self))
                    return
                }
                guard enabled else {
                    Terminal.print("Faces are off for this library; turn them on with: sepia faces on")
                    return
                }
                Terminal.print(
                    "\(status.indexedAssets) of \(counted(status.indexedAssets + status.assetsToIndex, "item", "items")) searched for faces")
                Terminal.print(
                    "\(counted(status.faces, "face", "faces")): \(counted(status.people, "person", "people")) (\(status.namedPeople) named), "
                        + "\(status.unassignedFaces) not yet anyone's")
                if !modelsInstalled {
                    Terminal.print(
                        "The face models are not installed in \(FaceModels.defaultDirectory): run \(FaceModels.installCommand)")
                } else if status.assetsToIndex > 0 {
                    Terminal.print("Find the rest with: sepia faces index")
                }
            }
        }
    }

    /// `sepia faces index`.
    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "index", abstract: "Find the faces of the items not searched yet, and group them into people.")

        @Option(name: .long, help: "Search at most this many items.")
        var limit: Int?

        @Option(name: .long, help: "Items searched at once (default: one per processor).")
        var jobs: Int?

        @Option(name: .customLong("face-models"), help: ArgumentHelp("The folder of the face models.", valueName: "dir"), completion: .directory)
        var faceModels: String?

        @Option(
            name: .customLong("search-megapixels"),
            help: ArgumentHelp(
                "The most megapixels searched in one item (default \(FaceIndexing.defaultMaximumSearchedPixels / 1_000_000)): more finds smaller faces in large photos, and takes longer.",
                valueName: "MP"))
        var searchMegapixels: Int?

        @Flag(name: .long, help: "Print the report as JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be between 1 and 64") }
            if let searchMegapixels, !(1...64).contains(searchMegapixels) {
                throw ValidationError("--search-megapixels must be between 1 and 64")
            }
        }

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json)
                defer { photos.close() }
                guard try photos.findsFaces() else {
                    Terminal.error("faces are off for this library; turn them on with: sepia faces on")
                    throw ReportedFailure(code: ExitStatus.usage)
                }
                let toIndex = try photos.faceIndexStatus(algorithm: FaceIndexing.algorithm).assetsToIndex
                let total = min(toIndex, limit ?? .max)
                let started = Date()
                let bar = Mutex<ProgressBar?>(json || total < 2 ? nil : ProgressBar(total: total, label: "Finding faces"))
                let done = Mutex(0)
                let indexing = FaceIndexing(
                    models: faceModels.map(FaceModels.init(directory:)) ?? .default,
                    maximumSearchedPixels: searchMegapixels.map { $0 * 1_000_000 } ?? FaceIndexing.defaultMaximumSearchedPixels)
                let report = try await photos.indexFaces(limit: limit ?? .max, concurrency: jobs, indexing: indexing) { count in
                    let previous = done.withLock { value in
                        defer { value = count }
                        return value
                    }
                    bar.withLock { bar in for _ in previous..<count { bar?.advance("") } }
                }
                bar.withLock { $0?.finish() }
                let seconds = Date().timeIntervalSince(started)
                let status = try photos.faceIndexStatus(algorithm: FaceIndexing.algorithm)
                if json {
                    struct Report: Encodable {
                        var indexed: Int
                        var faces: Int
                        var failed: [[String: String]]
                        var seconds: Double
                        var status: FaceIndexStatus
                    }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    let failed = report.failures.map { ["asset": $0.assetID, "reason": $0.reason] }
                    let data = try encoder.encode(
                        Report(indexed: report.indexed, faces: report.faces, failed: failed, seconds: seconds, status: status))
                    Terminal.print(String(decoding: data, as: UTF8.self))
                } else {
                    Terminal.print(
                        "Searched \(counted(report.indexed, "item", "items")) in \(String(format: "%.1f", seconds)) s: "
                            + "\(counted(report.faces, "face", "faces")). The library has \(counted(status.people, "person", "people")) "
                            + "(\(status.namedPeople) named) and \(counted(status.unassignedFaces, "face", "faces")) not yet anyone's.")
                    for failure in report.failures {
                        Terminal.error("\(failure.assetID.prefix(8)): \(failure.reason)")
                    }
                    if status.assetsToIndex > 0 && limit != nil { Terminal.print("\(status.assetsToIndex) items are left to search.") }
                }
                if !report.failures.isEmpty { throw ReportedFailure(code: ExitStatus.dataError) }
            }
        }
    }

    /// `sepia faces people`.
    struct People: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "people", abstract: "List the people, named first, then by number of photos.")

        @Flag(name: .long, help: "Include hidden people.")
        var hidden = false

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json)
                defer { photos.close() }
                let people = try photos.people(includingHidden: hidden)
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    encoder.dateEncodingStrategy = .iso8601
                    Terminal.print(String(decoding: try encoder.encode(people), as: UTF8.self))
                    return
                }
                if people.isEmpty { Terminal.print("No people yet; find them with: sepia faces index") }
                for person in people {
                    let name = person.name ?? "(unnamed)"
                    let photoCount = "\(person.assetCount) \(person.assetCount == 1 ? "photo" : "photos")"
                    Terminal.print(
                        "\(person.id.prefix(8))  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(photoCount)"
                            + (person.isHidden ? "  (hidden)" : ""))
                }
            }
        }
    }

    /// `sepia faces name PERSON NAME`.
    struct Name: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "name", abstract: "Name or rename a person.")

        @Argument(help: "The person: their identifier (or a unique prefix of it, as `sepia faces people` shows) or their name.")
        var person: String

        @Argument(help: "The name (empty to remove it).")
        var name: String

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let people = try photos.people(includingHidden: true)
                let matches: [Person]
                if let named = try photos.person(named: person) {
                    matches = [named]
                } else {
                    matches = people.filter { $0.id.lowercased().hasPrefix(person.lowercased()) }
                }
                guard matches.count == 1, let target = matches.first else {
                    throw ValidationError(
                        matches.isEmpty
                            ? "no person is called or identified by “\(person)”; list them with: sepia faces people"
                            : "“\(person)” names \(matches.count) people; give more of the identifier")
                }
                let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
                try photos.renamePerson(target.id, to: trimmed.isEmpty ? nil : trimmed)
                Terminal.print(trimmed.isEmpty ? "Removed the name of \(target.id.prefix(8))." : "Named \(target.id.prefix(8)) “\(trimmed)”.")
            }
        }
    }

    /// `sepia faces on`.
    struct TurnOn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "on", abstract: "Find faces in this library (the default).")

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                try photos.setFindsFaces(true)
                Terminal.print("Faces are on; find them with: sepia faces index (sepia serve does it in the background)")
            }
        }
    }

    /// `sepia faces off`.
    struct TurnOff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "off", abstract: "Delete every face and person of this library, and find no more faces.")

        @Flag(name: .long, help: "Do it without asking (needed when standard input is not a terminal).")
        var yes = false

        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let status = try photos.faceIndexStatus(algorithm: FaceIndexing.algorithm)
                if !yes {
                    guard isatty(STDIN_FILENO) == 1 else {
                        throw ValidationError(
                            "this deletes \(counted(status.faces, "face", "faces")) and \(counted(status.namedPeople, "name", "names")): "
                                + "add --yes to confirm")
                    }
                    FileHandle.standardError.write(
                        Data(
                            ("Delete \(counted(status.faces, "face", "faces")) and \(counted(status.namedPeople, "name", "names")), "
                                + "and find no more faces? [y/N] ").utf8))
                    guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                        Terminal.print("Nothing was changed.")
                        return
                    }
                }
                try photos.setFindsFaces(false)
                Terminal.print(
                    "Faces are off: \(counted(status.faces, "face", "faces")) and \(counted(status.people, "person", "people")) deleted.")
            }
        }
    }
}
