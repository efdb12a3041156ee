import Foundation
import SepiaCodecs
import SepiaImage
import SepiaVision
import Testing

/// Finding faces and their prints, written as Vision code is: a handler for the photo, the requests performed on it.
/// Checked against what the photos are known to hold (dlib's examples: who is who), not against a recorded output.
@Suite struct FaceRequestTests {
    @Test("bald_guys.jpg holds 24 faces, and their prints make 4 people of 6")
    func baldGuys() throws {
        let handler = try ImageRequestHandler(path: try FaceSets.baldGuys())
        let faces = try DetectFaceRectanglesRequest().perform(on: handler)
        #expect(faces.count == 24)
        for face in faces {
            #expect(face.confidence > 0.5 && face.confidence <= 1)
            #expect(face.boundingBox.x >= 0 && face.boundingBox.x + face.boundingBox.width <= 1)
            #expect(face.boundingBox.width > 0.02 && face.boundingBox.width < 0.25)
        }
        let prints = try GenerateFacePrintRequest(faces).perform(on: handler)
        #expect(prints.count == 24)
        #expect(prints.allSatisfy { $0.descriptor.count == 128 })
        let groups = FaceSets.groups(prints.map(\.descriptor))
        let sizes = Dictionary(grouping: groups, by: { $0 }).values.map(\.count).sorted()
        #expect(sizes == [6, 6, 6, 6])
    }

    @Test("johns/: five people, eleven faces each, every print nearer its own person than the threshold")
    func johns() throws {
        let people = try FaceSets.johns()
        #expect(people.count == 5)
        var prints: [[Float]] = []
        var owners: [Int] = []
        for (index, person) in people.enumerated() {
            #expect(person.photos.count == 11, "\(person.person)")
            for photo in person.photos {
                let handler = try ImageRequestHandler(path: photo)
                let found = try GenerateFacePrintRequest().perform(on: handler)
                #expect(found.count == 1, "\(photo): \(found.count) faces")
                if let print = found.first {
                    prints.append(print.descriptor)
                    owners.append(index)
                }
            }
        }
        let groups = FaceSets.groups(prints)
        // Each group is one person's and each person is one group.
        for (group, members) in Dictionary(grouping: prints.indices, by: { groups[$0] }) {
            #expect(Set(members.map { owners[$0] }).count == 1, "group \(group) mixes people")
        }
        #expect(Set(groups).count == 5)
    }

    @Test("face_recognition's photos: Obama's faces, even cut off at the edge, are one person; Biden is another")
    func obamaAndBiden() throws {
        var obama: [FacePrintObservation] = []
        for name in ["obama.jpg", "obama2.jpg", "obama3.jpg", "obama_partial_face.jpg", "obama_partial_face2.jpg"] {
            let prints = try GenerateFacePrintRequest().perform(on: ImageRequestHandler(path: try FaceSets.corpusPhoto(name)))
            #expect(prints.count == 1, "\(name): \(prints.count) faces")
            obama += prints
        }
        let biden = try GenerateFacePrintRequest().perform(on: ImageRequestHandler(path: try FaceSets.corpusPhoto("biden.jpg")))
        #expect(biden.count == 1)
        for a in obama {
            for b in obama { #expect(a.distance(to: b) < FacePrintObservation.sameIdentityDistance) }
            for b in biden { #expect(a.distance(to: b) > FacePrintObservation.sameIdentityDistance) }
        }
    }

    @Test("landmarks lie inside the face: eyes above the nose, the person's left eye on the image's right")
    func landmarks() throws {
        let faces = try DetectFaceLandmarksRequest().perform(on: ImageRequestHandler(path: try FaceSets.corpusPhoto("obama.jpg")))
        let face = try #require(faces.first)
        let landmarks = try #require(face.landmarks)
        #expect(landmarks.leftEye.count == 2 && landmarks.rightEye.count == 2 && landmarks.nose.count == 1)
        for point in landmarks.allPoints {
            #expect((0...1).contains(point.x) && (0...1).contains(point.y))
        }
        let leftX = landmarks.leftEye.map(\.x).reduce(0, +) / 2
        let rightX = landmarks.rightEye.map(\.x).reduce(0, +) / 2
        #expect(leftX > rightX)
        #expect(landmarks.leftEye.allSatisfy { $0.y > landmarks.nose[0].y })
        #expect(abs(try #require(face.roll)) < 0.3)
    }
}
