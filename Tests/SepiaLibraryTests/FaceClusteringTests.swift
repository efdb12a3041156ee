import Foundation
import Testing

@testable import SepiaLibrary

/// The grouping in memory (``FaceClustering``), on made-up face prints: faces of one person become one person,
/// and no person mixes two; the rules hold whatever the order faces arrive in.
@Suite struct FaceClusteringTests {
    /// Faces placed asset by asset, with the identity each was made from.
    struct World {
        var clustering: FaceClustering
        var prints: SyntheticFaces
        var identity: [Int64: Int] = [:]
        var assetOf: [Int64: Int64] = [:]
        var nextFace: Int64 = 1
        var nextPerson: Int64 = 1_000

        init(people: Int, seed: UInt64, options: FaceGroupingOptions = FaceGroupingOptions()) {
            clustering = FaceClustering(options: options)
            prints = SyntheticFaces(people: people, seed: seed)
        }

        /// Adds an asset with one face of each of `people` and places them; returns the faces.
        @discardableResult
        mutating func record(asset: Int64, _ people: [Int]) -> [Int64] {
            var rows: [Int64] = []
            for person in people {
                let row = nextFace
                nextFace += 1
                clustering.insertFace(
                    FaceClustering.Entry(rowID: row, asset: asset, person: nil, state: .unassigned, confidence: 1),
                    descriptor: prints.face(of: person))
                identity[row] = person
                assetOf[row] = asset
                rows.append(row)
            }
            var next = nextPerson
            clustering.place(rows) {
                next += 1
                return next
            }
            nextPerson = next
            return rows
        }

        mutating func regroup() {
            var next = nextPerson
            clustering.regroup {
                next += 1
                return next
            }
            nextPerson = next
        }

        /// For each person with faces, how many faces of each identity they have.
        var composition: [Int64: [Int: Int]] {
            var result: [Int64: [Int: Int]] = [:]
            for (person, group) in clustering.groups where !group.members.isEmpty {
                for face in group.members { result[person, default: [:]][identity[face] ?? -1, default: 0] += 1 }
            }
            return result
        }

        /// Whether some person has two faces of one asset.
        var someoneTwiceInOneAsset: Bool {
            clustering.groups.values.contains { group in
                let assets = group.members.compactMap { assetOf[$0] }
                return Set(assets).count != assets.count
            }
        }
    }

    @Test("ten people photographed ten times each, in any order, become ten people of one identity each", arguments: [1, 2, 3] as [UInt64])
    func tenPeople(seed: UInt64) {
        var world = World(people: 10, seed: seed)
        // One face per photo, the people in a shuffled order made from the seed.
        var order = (0..<100).map { $0 % 10 }
        var state = seed
        for index in order.indices.reversed() {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(index, Int(state >> 33) % (index + 1))
        }
        for (asset, person) in order.enumerated() { world.record(asset: Int64(asset), [person]) }
        let composition = world.composition
        #expect(composition.count == 10)
        #expect(composition.values.allSatisfy { $0.count == 1 && $0.values.first == 10 }, "\(composition)")
        #expect(world.clustering.unassigned.isEmpty)
    }

    @Test("two faces of one asset are never one person, even when they are prints of one identity (a mirror, a photo of a photo)")
    func oneAssetOnePersonOnce() {
        var world = World(people: 3, seed: 7)
        for asset in 0..<12 { world.record(asset: Int64(asset), asset % 3 == 0 ? [0, 0, 1] : [0, 1, 2]) }
        #expect(!world.someoneTwiceInOneAsset)
        // Each identity is one person; the second print of identity 0 in the same photo waits, unassigned.
        let composition = world.composition
        #expect(composition.values.allSatisfy { $0.count == 1 })
        #expect(Set(composition.values.flatMap(\.keys)) == [0, 1, 2])
        #expect(world.clustering.unassigned.count == 4)
        // A regrouping keeps it so.
        world.regroup()
        #expect(!world.someoneTwiceInOneAsset)
    }

    @Test("a person appears only once they have the minimum of faces, from different assets", arguments: [2, 3, 5])
    func minimumFaces(minimum: Int) {
        var world = World(people: 1, seed: 11, options: FaceGroupingOptions(minimumFacesPerPerson: minimum))
        for asset in 0..<(minimum - 1) { world.record(asset: Int64(asset), [0]) }
        #expect(world.composition.isEmpty)
        world.record(asset: Int64(minimum - 1), [0])
        #expect(world.composition.values.map { $0[0] } == [minimum])
    }

    @Test("a face rejected from a person never joins them again, however the faces are grouped again")
    func rejectionHolds() throws {
        var world = World(people: 2, seed: 5)
        for asset in 0..<8 { world.record(asset: Int64(asset), [0, 1]) }
        let face: Int64 = 1
        let person = try #require(world.clustering.entry(face)?.person)
        world.clustering.assign(face, to: nil, state: .unassigned)
        world.clustering.reject(face, from: person)
        world.regroup()
        #expect(world.clustering.entry(face)?.person != person)
        // Faces of the same identity arriving later do not pull it back either.
        for asset in 8..<12 { world.record(asset: Int64(asset), [0]) }
        world.regroup()
        #expect(world.clustering.entry(face)?.person != person)
        #expect(world.clustering.groups[person]?.members.count == 11, "the person keeps the rest of their faces and their identifier")
    }

    @Test("regrouping keeps people's identifiers and leaves confirmed faces where they are")
    func regroupKeepsIdentity() throws {
        var world = World(people: 4, seed: 9)
        for asset in 0..<20 { world.record(asset: Int64(asset), [asset % 4, (asset + 1) % 4]) }
        let before = world.composition
        let confirmed: Int64 = 3
        let owner = try #require(world.clustering.entry(confirmed)?.person)
        world.clustering.assign(confirmed, to: owner, state: .confirmed)
        _ = world.clustering.takeChanges()
        world.regroup()
        #expect(world.composition == before)
        #expect(world.clustering.entry(confirmed)?.person == owner && world.clustering.entry(confirmed)?.state == .confirmed)
        #expect(world.clustering.takeChanges().faces.isEmpty, "a regrouping that finds the same people changes no face")
    }

    @Test(
        "a sibling whose prints are near (centres 0.6 apart, faces of the two about 0.7) stays a person of their own",
        arguments: Array(21...40) as [UInt64])
    func siblings(seed: UInt64) {
        var world = World(people: 3, seed: seed)
        let sibling = world.prints.addRelative(of: 0, at: 0.6)
        for asset in 0..<40 { world.record(asset: Int64(asset), [asset % 2 == 0 ? 0 : sibling, 1 + asset % 2]) }
        let composition = world.composition
        #expect(composition.values.allSatisfy { $0.count == 1 }, "no person mixes the siblings: \(composition)")
        #expect(Set(composition.values.flatMap(\.keys)) == [0, 1, 2, sibling])
    }

    @Test("10 000 faces of 100 people, ten to a photo, become 100 people of one identity each")
    func tenThousandFaces() {
        var world = World(people: 100, seed: 42)
        for asset in 0..<1_000 {
            // Ten different people in each photo, every person in a hundred photos.
            world.record(asset: Int64(asset), (0..<10).map { (asset + $0 * 10 + (asset / 10) % 10) % 100 })
        }
        #expect(world.clustering.faceCount == 10_000)
        let composition = world.composition
        #expect(composition.count == 100)
        #expect(composition.values.allSatisfy { $0.count == 1 }, "no person mixes two identities")
        #expect(world.clustering.unassigned.count <= 100, "\(world.clustering.unassigned.count) faces unassigned")
        #expect(!world.someoneTwiceInOneAsset)
    }
}
