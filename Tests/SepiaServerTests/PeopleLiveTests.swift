import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import SepiaLibrary
import SepiaVision
import Testing

@testable import SepiaServer

extension PeopleRoutesTests {
    /// The tests of People that need a server on a port (the change stream is read from a socket): they run where the
    /// live suites run, on a machine not also running the rest of the suite, so that each answer comes within the test
    /// client's read timeout.
    @Suite("People through the API, on a live server", .serialized)
    struct PeopleLiveTests {
        @Test("the job finds and groups the faces of uploads; people are listed, named, hidden; faces assigned by name, taken, merged and undone")
        func people() async throws {
            let server = TestServer {
                $0.jobPollInterval = .milliseconds(100)
                $0.faceIndexBatch = 2
            }
            let (app, token, services) = try server.buildWithServices()
            try await app.test(.live) { client in
                let owner = try await Client.createOwner(client, setupToken: try #require(token))
                let labels = try await PeopleRoutesTests.upload(try PeopleRoutesTests.photos(), as: owner)
                let status = try await PeopleRoutesTests.indexed(12, by: owner)
                #expect(status.faces == 12 && status.people == 3 && status.namedPeople == 0 && status.enabled && !status.modelsMissing, "\(status)")

                // Three people, by number of photos; each person's photos are one person's.
                var people = try await owner.json(PeopleList.self, .get, "/api/v1/people").people
                #expect(people.map(\.faceCount) == [4, 4, 3])
                var byLabel: [String: PersonBody] = [:]
                for person in people {
                    let theirs = try await PeopleRoutesTests.labels(of: person.id, labels, as: owner)
                    #expect(Set(theirs).count == 1 && theirs.count == person.assetCount, "\(theirs)")
                    byLabel[theirs[0]] = person
                    let keyFace = try #require(person.keyFace)
                    #expect(keyFace.id == person.keyFaceID && labels[keyFace.assetID] == theirs[0])
                }
                let salley = try #require(byLabel["salley"])
                let savage = try #require(byLabel["savage"])
                let obama = try #require(byLabel["obama"])
                let assetOf = Dictionary(grouping: labels.keys, by: { labels[$0]! })
                let biden = try #require(assetOf["biden"]?.first)
                let obamaPhotos = try #require(assetOf["obama"])

                // A person's photos are newest first, with the list's paging.
                let page = try await owner.json(PageBody.self, .get, "/api/v1/assets?person=\(salley.id)&limit=3")
                #expect(page.total == 4 && page.assets.count == 3 && page.nextCursor != nil)
                #expect(zip(page.assets, page.assets.dropFirst()).allSatisfy { $0.creationDate >= $1.creationDate })
                #expect(try await owner.request(.get, "/api/v1/assets?person=\(UUID().uuidString.lowercased())").status == .notFound)

                // Naming: trimmed; named people first; a bad name is 422, someone else's 409 naming them.
                let port = try #require(client.port)
                let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Cookie": "sepia_session=" + owner.cookie!])
                defer { stream.close() }
                _ = try #require(await stream.next { $0.event == "ready" })
                let named = try await owner.json(PersonBody.self, .patch, "/api/v1/people/\(obama.id)", json: #"{"name": "  Barack Obama "}"#)
                #expect(named.name == "Barack Obama")
                let event = try #require(await stream.next { $0.event == "change" && $0.data.contains(obama.id) })
                #expect(event.data.contains(#""people":{"#) && event.data.contains(#""updated":["\#(obama.id)"]"#), "\(event.data)")
                people = try await owner.json(PeopleList.self, .get, "/api/v1/people").people
                #expect(people.first?.id == obama.id)
                for bad in [#""""#, #""   ""#, #""a\u0007b""#, #""two\nlines""#, "\"" + String(repeating: "x", count: 65) + "\""] {
                    let response = try await owner.request(.patch, "/api/v1/people/\(salley.id)", json: #"{"name": \#(bad)}"#)
                    #expect(response.status == .unprocessableContent, "\(bad): \(String(buffer: response.body))")
                }
                let taken = try await owner.request(.patch, "/api/v1/people/\(salley.id)", json: #"{"name": "barack OBAMA"}"#)
                #expect(taken.status == .conflict)
                #expect(try JSONDecoder.api.decode(ErrorBody.self, from: Data(buffer: taken.body)).detail == obama.id)
                #expect(try await owner.request(.patch, "/api/v1/people/\(salley.id)", json: "{}").status == .unprocessableContent)

                // Hidden people are listed only when asked for.
                _ = try await owner.json(PersonBody.self, .patch, "/api/v1/people/\(savage.id)", json: #"{"isHidden": true}"#)
                #expect(try await owner.json(PeopleList.self, .get, "/api/v1/people").people.map(\.id).contains(savage.id) == false)
                #expect(try await owner.json(PeopleList.self, .get, "/api/v1/people?hidden=true").people.map(\.id).contains(savage.id))
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(savage.id)").isHidden)
                _ = try await owner.json(PersonBody.self, .patch, "/api/v1/people/\(savage.id)", json: #"{"isHidden": false}"#)

                // The key face: one of theirs.
                let salleyFaces = try await owner.json(FaceList.self, .get, "/api/v1/assets/\(try #require(salley.keyFace).assetID)/faces").faces
                let otherAsset = try #require(assetOf["salley"]?.first { $0 != salley.keyFace?.assetID })
                let otherFace = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(otherAsset)/faces").faces.first)
                let rekeyed = try await owner.json(
                    PersonBody.self, .patch, "/api/v1/people/\(salley.id)", json: #"{"keyFaceID": "\#(otherFace.id)"}"#)
                #expect(rekeyed.keyFaceID == otherFace.id && rekeyed.keyFace?.assetID == otherAsset)
                #expect(salleyFaces.count == 1 && salleyFaces[0].personID == salley.id && salleyFaces[0].state == "grouped")

                // Biden's face belongs to no one: it is in the unassigned faces, a page at a time.
                let bidenFace = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(biden)/faces").faces.first)
                #expect(bidenFace.personID == nil && bidenFace.personName == nil && bidenFace.state == "unassigned")
                let unassigned = try await owner.json(FacePage.self, .get, "/api/v1/faces?state=unassigned&limit=1")
                #expect(unassigned.faces.map(\.id) == [bidenFace.id] && unassigned.nextAfter == nil)
                #expect(try await owner.json(FacePage.self, .get, "/api/v1/faces?after=\(bidenFace.id)").faces.isEmpty)
                #expect(try await owner.request(.get, "/api/v1/faces?state=grouped").status == .badRequest)

                // Assigned by a new name, then by the same name in another case: the same person.
                let joe = try await owner.json(Assigned.self, .put, "/api/v1/faces/\(bidenFace.id)/person", json: #"{"name": "Joe Biden"}"#)
                #expect(joe.person.name == "Joe Biden" && joe.person.faceCount == 1 && joe.face.state == "confirmed")
                #expect(joe.face.personID == joe.person.id && joe.face.personName == "Joe Biden")
                let obamaFaces = try await owner.json(FaceList.self, .get, "/api/v1/assets/\(obamaPhotos[0])/faces").faces
                let obamaFace = try #require(obamaFaces.first)
                #expect(obamaFace.personID == obama.id && obamaFace.personName == "Barack Obama")
                let moved = try await owner.json(Assigned.self, .put, "/api/v1/faces/\(obamaFace.id)/person", json: #"{"name": "joe BIDEN"}"#)
                #expect(moved.person.id == joe.person.id && moved.person.faceCount == 2)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(obama.id)").faceCount == 2)
                // Undone: the face is Obama's again, as the grouping had it.
                _ = try await owner.json(Undone.self, .post, "/api/v1/people/undo", json: #"{"undo": "\#(moved.undo)"}"#)
                var back = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(obamaPhotos[0])/faces").faces.first)
                #expect(back.personID == obama.id && back.state == "grouped")
                // By identifier.
                let byID = try await owner.json(
                    Assigned.self, .put, "/api/v1/faces/\(obamaFace.id)/person", json: #"{"personID": "\#(obama.id)"}"#)
                #expect(byID.face.state == "confirmed" && byID.person.id == obama.id)
                #expect(try await owner.request(.put, "/api/v1/faces/\(obamaFace.id)/person", json: "{}").status == .unprocessableContent)
                let nobody = #"{"personID": "\#(UUID().uuidString.lowercased())"}"#
                #expect(try await owner.request(.put, "/api/v1/faces/\(obamaFace.id)/person", json: nobody).status == .notFound)

                // Not this person, and back.
                let rejected = try await owner.json(Rejected.self, .delete, "/api/v1/faces/\(obamaFace.id)/person")
                #expect(rejected.face.personID == nil && rejected.face.state == "unassigned")
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(obama.id)").faceCount == 2)
                #expect(try await owner.request(.delete, "/api/v1/faces/\(obamaFace.id)/person").status == .conflict)
                _ = try await owner.json(Undone.self, .post, "/api/v1/people/undo", json: #"{"undo": "\#(rejected.undo)"}"#)
                back = try #require(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(obamaPhotos[0])/faces").faces.first)
                #expect(back.personID == obama.id && back.state == "confirmed")

                // Merged, undone (the other person back with their identifier), done again, and undone again.
                let merged = try await owner.json(Merged.self, .post, "/api/v1/people/\(salley.id)/merge", json: #"{"people": ["\#(savage.id)"]}"#)
                #expect(merged.person.id == salley.id && merged.person.faceCount == 8 && merged.person.assetCount == 8)
                #expect(try await owner.request(.get, "/api/v1/people/\(savage.id)").status == .notFound)
                let redo = try await owner.json(Undone.self, .post, "/api/v1/people/undo", json: #"{"undo": "\#(merged.undo)"}"#)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(savage.id)").faceCount == 4)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(salley.id)").faceCount == 4)
                #expect(Set(try await PeopleRoutesTests.labels(of: savage.id, labels, as: owner)) == ["savage"])
                let again = try await owner.json(Undone.self, .post, "/api/v1/people/undo", json: #"{"undo": "\#(redo.undo)"}"#)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(salley.id)").faceCount == 8)
                _ = try await owner.json(Undone.self, .post, "/api/v1/people/undo", json: #"{"undo": "\#(again.undo)"}"#)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(savage.id)").faceCount == 4)
                #expect(try await owner.request(.post, "/api/v1/people/\(salley.id)/merge", json: #"{"people": []}"#).status == .unprocessableContent)

                // A changed or forged token is refused, and nothing changes.
                let parts = merged.undo.split(separator: ".").map(String.init)
                let payload = try #require(Data(base64Encoded: PeopleRoutesTests.base64(parts[0])))
                var forgedJSON = String(decoding: payload, as: UTF8.self)
                forgedJSON = forgedJSON.replacingOccurrences(of: savage.id, with: obama.id)
                let forged = [
                    PeopleUndoToken.base64URL(Data(forgedJSON.utf8)) + "." + parts[1],
                    parts[0] + "." + String(parts[1].reversed()),
                    parts[0],
                    "not a token",
                    // Made with the deployment's key for another library.
                    try PeopleUndoToken(key: try services.accounts.peopleUndoKey(), library: UUID().uuidString.lowercased())
                        .seal(try JSONDecoder().decode(PeopleUndo.self, from: payload)),
                ]
                for token in forged {
                    let response = try await owner.request(.post, "/api/v1/people/undo", json: #"{"undo": "\#(token)"}"#)
                    #expect(response.status == .unprocessableContent, "\(token.prefix(40)): \(String(buffer: response.body))")
                }
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(savage.id)").faceCount == 4)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(obama.id)").faceCount == 3)

                // Another user: none of this library's people, faces or tokens.
                struct Invitation: Decodable { var url: String }
                let invitation = try await owner.json(Invitation.self, .post, "/api/v1/users/invitations", json: "{}", expect: .created)
                let guest = try await Client.signUp(client, setupToken: String(invitation.url.split(separator: "token=").last!), username: "guest")
                #expect(try await guest.json(PeopleList.self, .get, "/api/v1/people").people.isEmpty)
                #expect(try await guest.request(.get, "/api/v1/people/\(obama.id)").status == .notFound)
                #expect(try await guest.request(.get, "/api/v1/faces/\(obamaFace.id)/image").status == .notFound)
                #expect(try await guest.request(.delete, "/api/v1/faces/\(obamaFace.id)/person").status == .notFound)
                #expect(try await guest.request(.post, "/api/v1/people/undo", json: #"{"undo": "\#(merged.undo)"}"#).status == .unprocessableContent)
                #expect(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(savage.id)").faceCount == 4)

                // A face's picture: square, around the face, revalidated without a render.
                let picture = try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image?size=192")
                #expect(picture.status == .ok && picture.headers[.contentType] == "image/jpeg")
                #expect(picture.headers[.cacheControl] == "private, no-cache")
                let decoded = try ImageDecoding.open(EncodedBytes(Array(Data(buffer: picture.body))))
                #expect(decoded.image.extent.size == IntSize(width: 192, height: 192))
                let found = try DetectFaceRectanglesRequest().perform(on: decoded.image)
                #expect(found.count == 1, "the picture shows \(found.count) faces")
                if let face = found.first {
                    // Centred, and a fair part of the picture (the box with 40 % of its side around it).
                    let box = face.boundingBox.topLeftOrigin
                    #expect(abs(box.x + box.width / 2 - 0.5) < 0.15 && abs(box.y + box.height / 2 - 0.5) < 0.2, "\(box)")
                    #expect(box.width > 0.3 && box.width < 0.9, "\(box)")
                }
                let etag = try #require(picture.headers[.eTag])
                let revalidated = try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image?size=192", headers: [.ifNoneMatch: etag])
                #expect(revalidated.status == .notModified)
                // Asked for again, the same picture comes from the server's memory: no render.
                let faceRenders = #"sepia_render_duration_seconds_count{kind="face"}"#
                let rendered = try #require(try await PeopleRoutesTests.metric(faceRenders, of: owner))
                #expect(rendered >= 1)
                let cachedPicture = try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image?size=192")
                #expect(cachedPicture.status == .ok && cachedPicture.body == picture.body && cachedPicture.headers[.eTag] == etag)
                #expect(try await PeopleRoutesTests.metric(faceRenders, of: owner) == rendered)
                let pinned = try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image?size=192&v=\(etag.dropFirst().dropLast())")
                #expect(pinned.headers[.cacheControl] == "private, max-age=31536000, immutable")
                let small = try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image")
                #expect(try ImageDecoding.open(EncodedBytes(Array(Data(buffer: small.body)))).image.extent.size == IntSize(width: 160, height: 160))
                #expect(small.headers[.eTag] != etag)
                #expect(try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image?size=16").status == .badRequest)
                // A person's key face comes with the version of its pictures: asked for with it, any size is kept for good.
                let key = try #require(try await owner.json(PersonBody.self, .get, "/api/v1/people/\(obama.id)").keyFace)
                let version = try #require(key.version)
                #expect(version.count == 32)
                for size in [128, 192] {
                    let kept = try await owner.request(.get, "/api/v1/faces/\(key.id)/image?size=\(size)&v=\(version)")
                    #expect(kept.status == .ok && kept.headers[.cacheControl] == "private, max-age=31536000, immutable")
                }
                let stale = try await owner.request(.get, "/api/v1/faces/\(key.id)/image?size=192&v=0123456789abcdef0123456789abcdef")
                #expect(stale.status == .ok && stale.headers[.cacheControl] == "private, no-cache")

                // The status and /metrics.
                let after = try await owner.json(Status.self, .get, "/api/v1/people/status")
                #expect(after.people == 4 && after.namedPeople == 2 && after.unassignedFaces == 0, "\(after)")
                #expect(try await PeopleRoutesTests.metric(#"sepia_face_index_assets_total{outcome="indexed"}"#, of: owner) == 12)
                #expect(try await PeopleRoutesTests.metric("sepia_faces", of: owner) == 12)
                #expect(try await PeopleRoutesTests.metric("sepia_people", of: owner) == 4)
                #expect(try await PeopleRoutesTests.metric("sepia_face_index_assets_waiting", of: owner) == 0)
                #expect(try await PeopleRoutesTests.metric("sepia_face_models_missing", of: owner) == 0)
                let runs =
                    (try await PeopleRoutesTests.metric(#"sepia_jobs_total{kind="faces",outcome="continued"}"#, of: owner) ?? 0)
                    + (try await PeopleRoutesTests.metric(#"sepia_jobs_total{kind="faces",outcome="done"}"#, of: owner) ?? 0)
                #expect(runs >= 6, "12 assets were indexed 2 a run: \(runs) runs")

                // Faces off: everything goes at once; on again: indexed again, the names gone with them.
                let off = try await owner.json(Status.self, .put, "/api/v1/people/settings", json: #"{"enabled": false}"#)
                #expect(!off.enabled && off.faces == 0 && off.people == 0 && off.indexedAssets == 0, "\(off)")
                #expect(try await owner.json(PeopleList.self, .get, "/api/v1/people?hidden=true").people.isEmpty)
                #expect(try await owner.json(FaceList.self, .get, "/api/v1/assets/\(biden)/faces").faces.isEmpty)
                #expect(try await owner.request(.get, "/api/v1/people/\(obama.id)").status == .notFound)
                #expect(try await owner.request(.get, "/api/v1/faces/\(obamaFace.id)/image").status == .notFound)
                #expect(try await owner.request(.get, "/api/v1/assets?person=\(obama.id)").status == .notFound)
                // The job finds nothing to do while faces are off.
                _ = try await owner.uploadNew(1)
                try await Task.sleep(for: .seconds(1))
                #expect(try await owner.json(Status.self, .get, "/api/v1/people/status").faces == 0)
                let on = try await owner.json(Status.self, .put, "/api/v1/people/settings", json: #"{"enabled": true}"#)
                #expect(on.enabled && on.assetsToIndex == 13)
                let again13 = try await PeopleRoutesTests.indexed(13, by: owner)
                #expect(again13.faces == 12 && again13.people == 3 && again13.namedPeople == 0, "\(again13)")
            }
        }

        @Test("the change stream reports how far a library's faces have come, to credentials that see people")
        func progressInTheStream() async throws {
            // No job workers here: "another server" takes the job and reports, through the shared job table.
            let (app, token, services) = try TestServer { $0.jobWorkers = 0 }.buildWithServices()
            try await app.test(.live) { client in
                let owner = try await Client.createOwner(client, setupToken: try #require(token))
                let album = try await owner.json(AlbumBody.self, .post, "/api/v1/albums", json: #"{"title": "Family"}"#, expect: .created)
                let port = try #require(client.port)
                let stream = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Cookie": "sepia_session=" + owner.cookie!])
                defer { stream.close() }
                let limited = try await owner.token("read", albums: [album.id])
                let narrow = try EventStreamClient(port: port, path: "/api/v1/changes", headers: ["Authorization": "Bearer " + limited.bearer!])
                defer { narrow.close() }
                _ = try #require(await stream.next { $0.event == "ready" })
                _ = try #require(await narrow.next { $0.event == "ready" })
                _ = try await owner.uploadNew(1, query: "&album=\(album.id)")
                let elsewhere = JobQueue(database: services.accounts.database, worker: "elsewhere:1")
                var job: Job?
                while job == nil, let taken = try elsewhere.take(lease: 60) {
                    if taken.kind == .faces { job = taken }
                }
                let faces = try #require(job)
                #expect(try elsewhere.extend(faces, lease: 60, progress: 0.25))
                let event = try #require(await stream.next(timeout: .seconds(60)) { $0.event == "progress" && $0.data.contains("faces") })
                #expect(event.data.contains(#""faces":0.25"#), "\(event.data)")
                // Between two runs too: the progress stays with the job until the pass is over.
                try elsewhere.requeue(faces)
                #expect(await stream.next(timeout: .milliseconds(2500)) { $0.event == "progress" } == nil, "an unchanged state is not sent again")
                let again = try #require(try elsewhere.take(lease: 60))
                #expect(again.kind == .faces)
                #expect(try elsewhere.complete(again))
                let done = try #require(await stream.next(timeout: .seconds(60)) { $0.event == "progress" })
                #expect(!done.data.contains("faces"), "\(done.data)")
                // The limited token heard of no faces at all.
                #expect(await narrow.next(timeout: .milliseconds(1500)) { $0.event == "progress" && $0.data.contains("faces") } == nil)
            }
        }
    }
}
