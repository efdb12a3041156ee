import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SepiaServer

@Suite("Assets: title, caption, keywords, rating, date with time zone, location")
struct MetadataRoutesTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("PATCH sets every field, null clears, revert brings back the file's date and place; the JSON shows both")
    func patchAndRevert() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(1, query: "&modified=2021-06-01T12:00:00Z")
            // When every field is set at once
            let set = try await owner.request(
                .patch, "/api/v1/assets/\(id)",
                json: """
                    {"title": " Dusk ", "caption": "Line one\\nLine two", "keywords": ["Places|France|Paris", "family", "Family"],
                     "rating": 4, "creationDate": "2019-07-14T23:30:00+02:00",
                     "location": {"latitude": 48.8584, "longitude": 2.2945, "altitude": 35}}
                    """)
            #expect(set.status == .ok, "\(String(buffer: set.body))")
            let body = try Self.object(set)
            // Then the asset JSON carries them, tidied, and the file's values beside the edited ones
            #expect(body["title"] as? String == "Dusk")
            #expect(body["caption"] as? String == "Line one\nLine two")
            #expect(body["keywords"] as? [String] == ["Places|France|Paris", "family"])
            #expect(body["rating"] as? Int == 4)
            #expect(body["localCreationDate"] as? String == "2019-07-14T23:30:00+02:00")
            #expect(body["creationDateOffset"] as? Int == 7200 && body["creationDateSource"] as? String == "user")
            #expect(body["creationDateEdited"] as? Bool == true && body["locationEdited"] as? Bool == true)
            let file = try #require(body["file"] as? [String: Any])
            #expect(file["creationDate"] as? String == "2021-06-01T12:00:00Z" && file["location"] is NSNull)
            let location = try #require(body["location"] as? [String: Any])
            #expect(location["latitude"] as? Double == 48.8584 && location["altitude"] as? Double == 35)

            // When fields are cleared with null, and the date and place reverted
            let cleared = try Self.object(
                try await owner.request(
                    .patch, "/api/v1/assets/\(id)",
                    json: #"{"title": null, "caption": null, "keywords": null, "rating": null, "revert": ["creationDate", "location"]}"#))
            #expect(cleared["title"] is NSNull && cleared["caption"] is NSNull)
            #expect(cleared["keywords"] as? [String] == [] && cleared["rating"] as? Int == 0)
            #expect(cleared["creationDateEdited"] as? Bool == false && cleared["locationEdited"] as? Bool == false)
            #expect(cleared["location"] is NSNull)
            #expect(cleared["localCreationDate"] as? String == "2021-06-01T12:00:00+00:00" || cleared["creationDateOffset"] is NSNull)

            // addKeywords and removeKeywords edit the list; location null removes it
            _ = try await owner.request(
                .patch, "/api/v1/assets/\(id)", json: #"{"keywords": ["a", "b"], "location": {"latitude": 1, "longitude": 2}}"#)
            let edited = try Self.object(
                try await owner.request(
                    .patch, "/api/v1/assets/\(id)", json: #"{"addKeywords": ["c", "A"], "removeKeywords": ["b"], "location": null}"#))
            #expect(edited["keywords"] as? [String] == ["a", "c"])
            #expect(edited["location"] is NSNull)
        }
    }

    @Test("the batch route shifts a selection's dates, each keeping its zone or taking a new one")
    func batchShift() async throws {
        try await TestServer().withOwner { owner in
            let a = try await owner.uploadNew(1)
            let b = try await owner.uploadNew(2)
            _ = try await owner.request(.patch, "/api/v1/assets/\(a)", json: #"{"creationDate": "2024-03-01T10:00:00-05:00"}"#)
            _ = try await owner.request(.patch, "/api/v1/assets/\(b)", json: #"{"creationDate": "2024-03-02T10:00:00+09:00"}"#)
            let shifted = try Self.object(
                try await owner.request(
                    .patch, "/api/v1/assets", json: #"{"ids": ["\#(a)", "\#(b)"], "shiftCreationDate": {"seconds": 5400}, "rating": 3}"#))
            let assets = try #require(shifted["assets"] as? [[String: Any]])
            let local = Dictionary(uniqueKeysWithValues: assets.map { ($0["id"] as? String ?? "", $0["localCreationDate"] as? String ?? "") })
            #expect(local[a] == "2024-03-01T11:30:00-05:00" && local[b] == "2024-03-02T11:30:00+09:00")
            #expect(assets.allSatisfy { $0["rating"] as? Int == 3 })
            // With a new zone the shifted clock times are read in it
            let moved = try Self.object(
                try await owner.request(
                    .patch, "/api/v1/assets",
                    json: #"{"ids": ["\#(a)", "\#(b)"], "shiftCreationDate": {"seconds": -5400, "timeZone": "+01:00"}}"#))
            let zoned = try #require(moved["assets"] as? [[String: Any]])
            let after = Dictionary(uniqueKeysWithValues: zoned.map { ($0["id"] as? String ?? "", $0["localCreationDate"] as? String ?? "") })
            #expect(after[a] == "2024-03-01T10:00:00+01:00" && after[b] == "2024-03-02T10:00:00+01:00")
            // A shift is for selections only
            let single = try await owner.request(.patch, "/api/v1/assets/\(a)", json: #"{"shiftCreationDate": {"seconds": 60}}"#)
            #expect(single.status == .unprocessableContent)
        }
    }

    @Test("the listing finds by keyword, hierarchy level, text and rating, and re-sorts after a date change")
    func search() async throws {
        try await TestServer().withOwner { owner in
            let a = try await owner.uploadNew(1)
            let b = try await owner.uploadNew(2)
            let c = try await owner.uploadNew(3)
            _ = try await owner.request(.patch, "/api/v1/assets/\(a)", json: #"{"keywords": ["Places|France|Paris"], "rating": 5}"#)
            _ = try await owner.request(.patch, "/api/v1/assets/\(b)", json: #"{"title": "Paris by night", "creationDate": "1999-01-01T00:00:00Z"}"#)
            _ = try await owner.request(.patch, "/api/v1/assets/\(c)", json: #"{"keywords": ["Lyon"]}"#)
            func ids(_ query: String) async throws -> [String] {
                try await owner.json(PageBody.self, .get, "/api/v1/assets?" + query).assets.map(\.id)
            }
            #expect(try await ids("keyword=france") == [a])
            #expect(try await ids("keyword=Places%7CFrance") == [a])
            #expect(try await ids("search=paris&order=asc") == [b, a])
            #expect(try await ids("minRating=4") == [a])
            #expect(try await ids("keyword=nothing") == [])
            // b moved to 1999: it sorts last newest-first
            #expect(try await ids("order=desc").last == b)
            #expect(try await owner.request(.get, "/api/v1/assets?minRating=9").status == .badRequest)
            #expect(try await owner.request(.get, "/api/v1/assets?keyword=" + String(repeating: "k", count: 201)).status == .badRequest)
        }
    }

    @Test(
        "bad values are refused with a message naming the field, and change nothing",
        arguments: [
            (#"{"title": "\#(String(repeating: "t", count: 501))"}"#, 400, "title"),
            (#"{"caption": "\#(String(repeating: "c", count: 5001))"}"#, 400, "caption"),
            (#"{"keywords": ["a||b"]}"#, 400, "keyword"),
            (#"{"keywords": [\#((0..<201).map { "\"k\($0)\"" }.joined(separator: ","))]}"#, 422, "keywords"),
            (#"{"rating": 6}"#, 422, "rating"),
            (#"{"rating": 2.5}"#, 400, "rating"),
            (#"{"creationDate": "yesterday"}"#, 400, "date"),
            (#"{"creationDate": "2024-02-30T10:00:00Z"}"#, 400, "day"),
            (#"{"creationDate": "2024-01-01T10:00:00+15:00"}"#, 400, "14"),
            (#"{"creationDate": null}"#, 422, "revert"),
            (#"{"location": {"latitude": 91, "longitude": 0}}"#, 422, "latitude"),
            (#"{"location": {"latitude": 1, "longitude": 1, "altitude": 1e9}}"#, 422, "altitude"),
            (#"{"keywords": ["a"], "addKeywords": ["b"]}"#, 422, "keywords"),
            (#"{"revert": ["rating"]}"#, 400, "revert"),
        ])
    func validation(body: String, status: Int, word: String) async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(1)
            let before = try await owner.request(.get, "/api/v1/assets/\(id)")
            let response = try await owner.request(.patch, "/api/v1/assets/\(id)", json: body)
            #expect(Int(response.status.code) == status, "\(String(buffer: response.body))")
            #expect(String(buffer: response.body).lowercased().contains(word), "\(String(buffer: response.body))")
            let after = try Self.object(try await owner.request(.get, "/api/v1/assets/\(id)"))
            #expect(after["revision"] as? Int == (try Self.object(before))["revision"] as? Int)
        }
    }

    @Test("a body over the server's JSON limit is refused before it is read whole")
    func bodyLimit() async throws {
        var server = TestServer()
        server.configuration.maximumJSONBytes = 4096
        try await server.withOwner { owner in
            let id = try await owner.uploadNew(1)
            let huge = #"{"caption": "\#(String(repeating: "x", count: 8000))"}"#
            let response = try await owner.request(.patch, "/api/v1/assets/\(id)", json: huge)
            #expect(response.status == .contentTooLarge)
        }
    }

    @Test("share links and other users see none of it; a read token reads it but cannot change it")
    func credentials() async throws {
        try await TestServer().withOwner { owner in
            let id = try await owner.uploadNew(1)
            _ = try await owner.request(.patch, "/api/v1/assets/\(id)", json: #"{"title": "Secret title", "keywords": ["private-keyword"]}"#)
            struct Share: Decodable { var url: String }
            let share = try await owner.json(Share.self, .post, "/api/v1/shares", json: #"{"assetID": "\#(id)"}"#, expect: .created)
            let token = String(share.url.split(separator: "/").last ?? "")
            let shared = try await owner.anonymous.request(.get, "/api/v1/shared/\(token)")
            #expect(shared.status == .ok)
            #expect(!String(buffer: shared.body).contains("private-keyword") && !String(buffer: shared.body).contains("Secret title"))
            let read = try await owner.token("read")
            #expect(try await read.json(PageBody.self, .get, "/api/v1/assets?keyword=private-keyword").assets.map(\.id) == [id])
            #expect(try await read.request(.patch, "/api/v1/assets/\(id)", json: #"{"rating": 1}"#).status == .forbidden)
            let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
            let guest = try await Client.signUp(
                owner.anonymous.client, setupToken: String(invitation.url.split(separator: "token=").last ?? ""), username: "guest")
            #expect(try await guest.json(PageBody.self, .get, "/api/v1/assets?keyword=private-keyword").total == 0)
            #expect(try await guest.request(.patch, "/api/v1/assets/\(id)", json: #"{"rating": 1}"#).status == .notFound)
        }
    }

    struct Invitation: Decodable { var url: String }
}
