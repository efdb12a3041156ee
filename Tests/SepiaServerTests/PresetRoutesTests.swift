import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaServer

@Suite("Edit presets through the API")
struct PresetRoutesTests {
    struct Preset: Decodable {
        var id: String
        var name: String
        var recipe: EditRecipe
    }

    struct PresetList: Decodable {
        var presets: [Preset]
    }

    static func body(_ name: String, _ steps: String, replace: Bool? = nil) -> String {
        let recipe = #"{"formatIdentifier": "org.sepia.recipe", "formatVersion": "2", "steps": [\#(steps)]}"#
        return #"{"name": "\#(name)", "recipe": \#(recipe)\#(replace.map { #", "replace": \#($0)"# } ?? "")}"#
    }

    static let crop = #"{"filter": "CICrop", "parameters": {"inputRectangle": [0, 0, 20, 20]}}"#
    static let noir = #"{"filter": "CIPhotoEffectNoir", "intensity": 0.4}"#
    static let warm = #"{"filter": "CITemperatureAndTint", "parameters": {"inputNeutral": [7500, 0]}}"#

    @Test("save keeps the portable steps; the list is by name; a taken name is a conflict unless replaced; delete")
    func saveListReplaceDelete() async throws {
        try await TestServer().withOwner { owner in
            let noir = try await owner.json(
                Preset.self, .post, "/api/v1/presets", json: Self.body("Noir 40", "\(Self.crop), \(Self.noir)"), expect: .created)
            #expect(noir.recipe.steps.map(\.filter) == ["CIPhotoEffectNoir"])
            #expect(noir.recipe.steps.first?.intensity == 0.4)
            _ = try await owner.json(Preset.self, .post, "/api/v1/presets", json: Self.body("amber", Self.warm), expect: .created)
            var list = try await owner.json(PresetList.self, .get, "/api/v1/presets")
            #expect(list.presets.map(\.name) == ["amber", "Noir 40"])

            let taken = try await owner.request(.post, "/api/v1/presets", json: Self.body("NOIR 40", Self.warm))
            #expect(taken.status == .conflict)
            #expect(String(buffer: taken.body).contains("replace"))
            let replaced = try await owner.json(
                Preset.self, .post, "/api/v1/presets", json: Self.body("NOIR 40", Self.warm, replace: true), expect: .created)
            #expect(replaced.id == noir.id && replaced.recipe.steps.map(\.filter) == ["CITemperatureAndTint"])

            #expect(try await owner.request(.delete, "/api/v1/presets/\(noir.id)").status == .noContent)
            #expect(try await owner.request(.delete, "/api/v1/presets/\(noir.id)").status == .notFound)
            #expect(try await owner.request(.delete, "/api/v1/presets/not-an-id").status == .notFound)
            list = try await owner.json(PresetList.self, .get, "/api/v1/presets")
            #expect(list.presets.map(\.name) == ["amber"])
        }
    }

    @Test("a preset with nothing portable, a bad name or an invalid recipe is refused with 422")
    func refusals() async throws {
        try await TestServer().withOwner { owner in
            let bodies = [
                Self.body("Crop", Self.crop), Self.body("", Self.noir), Self.body(String(repeating: "n", count: 65), Self.noir),
                Self.body("Bogus", #"{"filter": "CIBogus"}"#),
                Self.body("Too strong", #"{"filter": "CIPhotoEffectNoir", "intensity": 2}"#),
            ]
            for body in bodies {
                let response = try await owner.request(.post, "/api/v1/presets", json: body)
                #expect(response.status == .unprocessableContent, "\(body): \(String(buffer: response.body))")
            }
            let steps = Array(repeating: Self.warm, count: 65).joined(separator: ", ")
            #expect(try await owner.request(.post, "/api/v1/presets", json: Self.body("Long", steps)).status == .unprocessableContent)
            #expect(try await owner.json(PresetList.self, .get, "/api/v1/presets").presets.isEmpty)
        }
    }

    @Test("the same name saved by many requests at once makes one preset; the others are told it is taken")
    func concurrentSaves() async throws {
        try await TestServer().withOwner { owner in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await owner.request(.post, "/api/v1/presets", json: Self.body(index % 2 == 0 ? "Race" : "RACE", Self.noir)).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 7, "\(statuses)")
            #expect(try await owner.json(PresetList.self, .get, "/api/v1/presets").presets.count == 1)
        }
    }

    @Test("the preset strip has a tile per preset in the order its header names; Noir's tile is grey")
    func presetStrip() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(12)
            let warm = try await owner.json(Preset.self, .post, "/api/v1/presets", json: Self.body("Warm", Self.warm), expect: .created)
            let noir = try await owner.json(
                Preset.self, .post, "/api/v1/presets", json: Self.body("A noir", #"{"filter": "CIPhotoEffectNoir"}"#), expect: .created)
            let response = try await owner.request(.get, "/api/v1/assets/\(id)/preset-strip?size=40")
            #expect(response.status == .ok)
            #expect(response.headers[.init("X-Sepia-Strip-Presets")!] == "\(noir.id),\(warm.id)")
            let image = try ImageDecoding.open(data: Data(buffer: response.body))
            #expect(image.pixelSize == IntSize(width: 80, height: 40))
            let bitmap = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(image.image, layout: .rgb)
            var spread = 0
            for y in stride(from: 4, to: 36, by: 4) {
                for x in stride(from: 4, to: 36, by: 4) {
                    let i = y * bitmap.bytesPerRow + x * 3
                    let (r, g, b) = (Int(bitmap.bytes[i]), Int(bitmap.bytes[i + 1]), Int(bitmap.bytes[i + 2]))
                    spread = max(spread, max(r, g, b) - min(r, g, b))
                }
            }
            #expect(spread <= 12, "the first tile (Noir) has colour: \(spread)")
            #expect(try await owner.request(.get, "/api/v1/assets/\(id)/preset-strip?size=5000").status == .badRequest)
        }
    }
}
