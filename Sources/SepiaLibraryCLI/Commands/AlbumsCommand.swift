import ArgumentParser
import Foundation
import SepiaCommandLine
import SepiaLibrary

/// `sepia albums [list|create|rename|delete|add|remove|move]`.
struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List and edit albums.",
        subcommands: [List.self, Create.self, Rename.self, Delete.self, Add.self, Remove.self, Move.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the albums, the smart albums and, with --timeline, the years and months.")

        @Flag(name: .long, help: "Also list the timeline: years and their months.")
        var timeline = false

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        @OptionGroup var library: LibraryOptions

        struct AlbumJSON: Encodable {
            let id: String
            let title: String
            let kind: String
            let assetCount: Int
        }

        struct TimelineJSON: Encodable {
            let id: String
            let title: String
            let assetCount: Int
            let months: [TimelineJSON]?
        }

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open(quiet: json)
                defer { photos.close() }
                let albums = try photos.fetchAlbums().allObjects()
                let smart = try photos.smartAlbums()
                var years: [(CollectionList, [CollectionList])] = []
                if timeline {
                    for year in try photos.years() { years.append((year, try photos.months(in: year.year))) }
                }
                if json {
                    struct Output: Encodable {
                        let albums: [AlbumJSON]
                        let smartAlbums: [AlbumJSON]
                        let timeline: [TimelineJSON]?
                    }
                    let output = Output(
                        albums: albums.map { AlbumJSON(id: $0.id, title: $0.title, kind: "album", assetCount: $0.assetCount) },
                        smartAlbums: smart.map { AlbumJSON(id: $0.id, title: $0.title, kind: "smart", assetCount: $0.assetCount) },
                        timeline: timeline
                            ? years.map { year, months in
                                TimelineJSON(
                                    id: year.id, title: year.title, assetCount: year.assetCount,
                                    months: months.map { TimelineJSON(id: $0.id, title: $0.title, assetCount: $0.assetCount, months: nil) })
                            } : nil)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    Terminal.print(String(decoding: try encoder.encode(output), as: UTF8.self))
                    return
                }
                for album in smart { Terminal.print("\(album.title.padding(toLength: 28, withPad: " ", startingAt: 0)) \(album.assetCount)") }
                if !albums.isEmpty { Terminal.print("") }
                for album in albums {
                    Terminal.print("\(album.title.padding(toLength: 28, withPad: " ", startingAt: 0)) \(album.assetCount)  \(album.id.prefix(8))")
                }
                if timeline {
                    Terminal.print("")
                    for (year, months) in years {
                        Terminal.print("\(year.title)  \(year.assetCount)")
                        for month in months {
                            Terminal.print("  \(month.title.padding(toLength: 16, withPad: " ", startingAt: 0)) \(month.assetCount)")
                        }
                    }
                }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an album.")
        @Argument(help: "The title.") var title: String
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let outcome = try await library.withLibrary { photos in try await photos.performChanges { $0.createAlbum(title: title) } }
                Terminal.print(outcome.createdAlbumIDs.first ?? "")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an album.")
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "The new title.") var title: String
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await editAlbum(album, in: library) { changes, target in changes.renameAlbum(target.id, to: title) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete an album (its photos stay in the library).")
        @Argument(help: "The album (title or identifier).") var album: String
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await editAlbum(album, in: library) { changes, target in changes.deleteAlbums([target.id]) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add photos to the end of an album.")
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Photos (identifiers or unique prefixes).") var assets: [String]
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await editAlbum(album, photos: assets, in: library) { changes, target, ids in changes.addAssets(ids, to: target.id) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove photos from an album (they stay in the library).")
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "Photos (identifiers or unique prefixes).") var assets: [String]
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await editAlbum(album, photos: assets, in: library) { changes, target, ids in changes.removeAssets(ids, from: target.id) }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move a photo to a position (0 is first) in an album.")
        @Argument(help: "The album (title or identifier).") var album: String
        @Argument(help: "The photo (identifier or unique prefix).") var asset: String
        @Argument(help: "The new position, 0-based.") var position: Int
        @OptionGroup var library: LibraryOptions

        func run() async throws {
            try await reportingErrors {
                let photos = try library.open()
                defer { photos.close() }
                let target = try photos.album(album)
                let photo = try photos.asset(matching: asset)
                guard let index = try photos.fetchAssets(in: target, options: FetchOptions(includeHiddenAssets: true)).index(of: photo) else {
                    throw LibraryError(.invalidRequest, "the photo is not in the album", subject: photo.id)
                }
                try await photos.performChanges { $0.moveAssets(at: IndexSet(integer: index), to: position, in: target.id) }
            }
        }
    }
}

extension AsyncParsableCommand {
    /// Opens the library, finds `album` and the photos `references` name, and applies `change` to them.
    func editAlbum(
        _ album: String, photos references: [String] = [], in library: LibraryOptions,
        _ change: @escaping (ChangeRequests, Album, [String]) -> Void
    ) async throws {
        try await reportingErrors {
            try await library.withLibrary { photos in
                let target = try photos.album(album)
                let ids = try photos.assets(matching: references).map(\.id)
                try await photos.performChanges { change($0, target, ids) }
            }
        }
    }

    func editAlbum(_ album: String, in library: LibraryOptions, _ change: @escaping (ChangeRequests, Album) -> Void) async throws {
        try await editAlbum(album, photos: [], in: library) { changes, target, _ in change(changes, target) }
    }
}
