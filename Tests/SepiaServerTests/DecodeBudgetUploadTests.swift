import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaTestSupport
import Testing

@testable import SepiaServer

/// The cheapest credential cannot make the server set aside what a file's header declares: TIFF files of a few
/// hundred bytes declaring a 64×64 image in 16384×16384 or 65536×65536 tiles (0.8 and 12.9 GB of tile
/// buffers), uploaded at once by an add-only token, are each refused with a 422 that says what the file declares
/// and the budget, and nothing is stored.
@Suite("Decode memory budget on upload")
struct DecodeBudgetUploadTests {
    @Test("an add-only token's uploads of TIFFs declaring huge tiles are refused with the reason")
    func hugeTilesAreRefused() async throws {
        let server = TestServer()
        try await server.withOwner { owner in
            let adder = try await owner.token("add-only")
            let sides: [UInt32] = [65536, 16384, 65536, 16384]
            try await withThrowingTaskGroup(of: (UInt32, TestResponse).self) { group in
                for (index, side) in sides.enumerated() {
                    group.addTask { (side, try await adder.upload(Data(HostileTIFF.tiles(side)), filename: "tiles-\(index).tif")) }
                }
                for try await (side, response) in group {
                    #expect(response.status == .unprocessableContent, "\(side): \(response.status) \(String(buffer: response.body))")
                    let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    let detail = body["detail"] as? String ?? ""
                    #expect(detail.contains("tiles of \(side)x\(side) pixels for a 64x64 image"), "\(detail)")
                    #expect(detail.contains("more than 64 MiB"), "\(detail)")
                }
            }
            #expect(server.storedFiles().isEmpty)
        }
    }
}
