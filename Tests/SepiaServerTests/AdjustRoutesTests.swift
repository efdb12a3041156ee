import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaServer

@Suite("The Adjust panel and Auto through the API")
struct AdjustRoutesTests {
    struct Panel: Decodable {
        struct Section: Decodable {
            var id: String
            var title: String
            var adjustments: [Adjustment]
        }
        var sections: [Section]
    }

    struct Auto: Decodable {
        var adjustments: [String: Double]
        var steps: [EditRecipe.Step]
    }

    /// A dark photo: encoded values from 2 to 60 of 255.
    static func darkJPEG() -> Data {
        var bitmap = Bitmap(width: 96, height: 64, layout: .rgb)
        for y in 0..<64 {
            for x in 0..<96 {
                let v = UInt8(2 + (x * 40 + y * 18) / 95)
                let i = (y * 96 + x) * 3
                bitmap.bytes[i] = v
                bitmap.bytes[i + 1] = UInt8(Double(v) * 0.9)
                bitmap.bytes[i + 2] = UInt8(Double(v) * 0.7)
            }
        }
        return Data(try! ImageEncoding.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: 92)))
    }

    @Test("the panel lists Photos' sliders by section, with the mappings the engine uses")
    func panel() async throws {
        try await TestServer().withOwner { owner in
            let panel = try await owner.json(Panel.self, .get, "/api/v1/filters/adjustments")
            #expect(panel.sections.map(\.title) == ["Light", "Color", "Black & White", "Detail"])
            #expect(panel.sections.flatMap(\.adjustments) == Adjustment.panel)
            // The web app's checks use a copy of this answer: it must be the server's.
            let copy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Tests/web/adjustments.json")
            let saved = try JSONDecoder().decode(Panel.self, from: Data(contentsOf: copy))
            #expect(
                saved.sections.map(\.title) == panel.sections.map(\.title) && saved.sections.flatMap(\.adjustments) == Adjustment.panel,
                "Tests/web/adjustments.json is out of date: save GET /api/v1/filters/adjustments there")
        }
    }

    @Test("Auto brightens a dark photo; its steps save as an edit; a bad recipe or a missing photo is refused")
    func auto() async throws {
        try await TestServer().withOwner { owner in
            let id = try JSONDecoder.api.decode(UploadBody.self, from: Data(buffer: try await owner.upload(Self.darkJPEG()).body)).id
            let auto = try await owner.json(Auto.self, .post, "/api/v1/assets/\(id)/auto-adjust", json: "{}")
            #expect((auto.adjustments["exposure"] ?? 0) > 0.3, "\(auto.adjustments)")
            #expect(auto.steps.first?.filter == "CIExposureAdjust")
            let values = AdjustmentValues.read(auto.steps)
            #expect(values.count == auto.steps.count && values.values.positions == auto.adjustments)

            let recipe = String(decoding: EditRecipe(steps: auto.steps).encoded(), as: UTF8.self)
            let saved = try await owner.json(AssetBody.self, .put, "/api/v1/assets/\(id)/edit", json: recipe)
            #expect(saved.hasAdjustments)

            let bad = #"{"recipe": {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [{"filter": "CIBogus"}]}}"#
            #expect(try await owner.request(.post, "/api/v1/assets/\(id)/auto-adjust", json: bad).status == .unprocessableContent)
            let missing = "00000000-0000-4000-8000-000000000000"
            #expect(try await owner.request(.post, "/api/v1/assets/\(missing)/auto-adjust", json: "{}").status == .notFound)
        }
    }
}
