import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import Testing

@testable import SepiaLibrary

/// Near-duplicates: the perceptual hash against a NumPy implementation of the same steps
/// (scripts/references/perceptual_hash.py), the pair search against comparing every pair, and a library's groups,
/// the one to keep, "not duplicates" and Recently Deleted.
@Suite struct DuplicatesTests {
    @Test("the hash and its 32 × 32 grid are NumPy's, for grey, RGB and RGBA images of any shape")
    func hashMatchesReference() throws {
        var random = SeededRandom(seed: 11)
        var images: [(width: Int, height: Int, channels: Int, pixels: [UInt8])] = []
        for (width, height, channels) in [(256, 192, 3), (192, 256, 3), (33, 31, 1), (1000, 7, 3), (32, 32, 4), (5, 3, 3), (256, 171, 3)] {
            // Smooth content with noise on it, as a photo's thumbnail is.
            let (fx, fy, phase) = (random.unit() * 6, random.unit() * 6, random.unit() * 6)
            var pixels: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) / Double(width)
                    let v = Double(y) / Double(height)
                    let base = 128 + 90 * sin(fx * u * 3 + phase) * cos(fy * v * 3 - phase)
                    for c in 0..<channels {
                        pixels.append(UInt8(max(0, min(255, base + Double(c) * 10 + (random.unit() - 0.5) * 40))))
                    }
                }
            }
            images.append((width, height, channels, pixels))
        }
        let input = images.map { image in
            "\(image.width) \(image.height) \(image.channels) " + image.pixels.map { String(format: "%02x", $0) }.joined()
        }.joined(separator: "\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sepia-phash-\(UUID().uuidString).txt")
        try input.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let reference = try ExternalProgram.run(
            "/bin/sh", ["-c", "exec \"$0\" \"$1\" < \"$2\"", Self.python, Self.script("perceptual_hash.py"), file.path])
        try #require(reference.status == 0, "the reference failed: \(reference.errors); scripts/testdata-raw makes .venv with NumPy")
        let lines = reference.output.split(separator: "\n")
        try #require(lines.count == images.count)
        for (image, line) in zip(images, lines) {
            let fields = line.split(separator: " ")
            let grid = PerceptualHash.luma32(pixels: image.pixels, width: image.width, height: image.height, channels: image.channels)
            let expectedGrid = fields.dropFirst().map { Double($0)! }
            let largest = zip(grid, expectedGrid).map { abs($0 - $1) }.max() ?? .infinity
            #expect(largest < 1e-6, "\(image.width)×\(image.height)×\(image.channels): the grid differs by \(largest)")
            let hash = try #require(PerceptualHash(pixels: image.pixels, width: image.width, height: image.height, channels: image.channels))
            #expect(hash.description == String(fields[0]), "\(image.width)×\(image.height)×\(image.channels)")
        }
        #expect(PerceptualHash(pixels: [], width: 0, height: 0, channels: 3) == nil)
        #expect(PerceptualHash(pixels: [1, 2], width: 2, height: 2, channels: 3) == nil)
    }

    @Test("the chunk tables find exactly the pairs that comparing every pair finds, at every threshold")
    func pairSearchIsExact() {
        var random = SeededRandom(seed: 3)
        var hashes: [UInt64] = []
        for _ in 0..<400 {
            let base = random.next()
            hashes.append(base)
            // Copies a few bits away, so that every threshold has pairs to find.
            for _ in 0..<Int(random.next() % 3) {
                var copy = base
                for _ in 0..<Int(random.next() % 14) { copy ^= 1 << (random.next() % 64) }
                hashes.append(copy)
            }
        }
        for threshold in [0, 1, 3, 4, 7, 8, 10, 11, 12, 15, 16, 20] {
            var found = Set<IndexPair>()
            DuplicateFinder(threshold: threshold).forEachPair(hashes) { found.insert(IndexPair($0, $1)) }
            var expected = Set<IndexPair>()
            for a in hashes.indices {
                for b in (a + 1)..<hashes.count where (hashes[a] ^ hashes[b]).nonzeroBitCount <= threshold { expected.insert(IndexPair(a, b)) }
            }
            #expect(found == expected, "threshold \(threshold): \(found.count) pairs, comparing every pair \(expected.count)")
        }
        // A burst: each frame near the next joins one group; a dismissed pair that is the only link splits it.
        let burst: [UInt64] = [0, 0b1111, 0b1111_1111, 0b1111_1111_1111]
        #expect(DuplicateFinder(threshold: 4).groups(burst) == [[0, 1, 2, 3]])
        #expect(Set(DuplicateFinder(threshold: 4).groups(burst, dismissed: [IndexPair(1, 2)])) == [[0, 1], [2, 3]])
    }

    @Test("copies of one photo are one group with the largest to keep; an unrelated photo is in none; not duplicates stay apart")
    func libraryGroups() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        let copies: [(String, Data)] = [
            ("original.jpg", Self.picture(seed: 1, width: 640, height: 480, quality: 92)),
            ("small.jpg", Self.picture(seed: 1, width: 384, height: 288, quality: 92)),
            ("q60.jpg", Self.picture(seed: 1, width: 640, height: 480, quality: 60)),
            ("bright.jpg", Self.picture(seed: 1, width: 640, height: 480, quality: 92, brightness: 1.15)),
            ("cropped.jpg", Self.picture(seed: 1, width: 608, height: 456, quality: 92, crop: 0.05)),
            ("copy.webp", Self.picture(seed: 1, width: 640, height: 480, format: .webp)),
        ]
        var prepared: [PreparedAsset] = []
        for (name, data) in copies + [("other.jpg", Self.picture(seed: 2, width: 640, height: 480, quality: 92))] {
            prepared.append(try await library.prepareAsset(data: data, filename: name))
        }
        let ids = try await library.performChanges { changes in for p in prepared { changes.createAsset(from: p) } }.createdAssetIDs
        #expect(try library.duplicateGroups().isEmpty, "nothing is grouped before it is hashed")
        #expect(try library.duplicatesStatus().waitingAssets == 7)
        #expect(try await library.hashAllWaitingAssets() == 7)
        #expect(try library.duplicatesStatus() == DuplicatesStatus(hashedAssets: 7, waitingAssets: 0, unreadableAssets: 0))

        let groups = try library.duplicateGroups()
        try #require(groups.count == 1, "\(groups.map { $0.assets.map(\.originalFilename) })")
        let group = groups[0]
        #expect(Set(group.assets.map(\.originalFilename)) == Set(copies.map(\.0)))
        // The three full-size JPEGs tie on pixels, metadata, format and date; the largest file wins among them.
        #expect(group.keep.pixelWidth == 640 && group.keep.originalFormat == .jpeg)
        #expect(group.distances[group.keep.id] == 0)
        #expect(group.assets.dropFirst().map { group.distances[$0.id]! } == group.assets.dropFirst().map { group.distances[$0.id]! }.sorted())
        #expect(group.id == group.assets.map(\.id).min())

        // "Not duplicates", and its undo.
        try library.setNotDuplicates(group.assets.map(\.id))
        #expect(try library.duplicateGroups().isEmpty)
        try library.setNotDuplicates(group.assets.map(\.id), false)
        #expect(try library.duplicateGroups().count == 1)

        // The others moved to Recently Deleted leave the group; recovered, they come back.
        let others = group.others.map(\.id)
        try await library.performChanges { $0.deleteAssets(others) }
        #expect(try library.duplicateGroups().isEmpty)
        try await library.performChanges { $0.recoverAssets(others) }
        #expect(try library.duplicateGroups().first?.assets.count == copies.count)
        // A threshold of 0 keeps only identical hashes together; a library's album-limited view, only its album.
        #expect(try library.duplicateGroups(threshold: 0).allSatisfy { group in group.distances.values.allSatisfy { $0 == 0 } })
        _ = ids
    }

    @Test("a picture that cannot be read is counted as unreadable and not tried again")
    func unreadable() async throws {
        let library = try TestLibrary.open()
        defer { library.close() }
        var ids: [String] = []
        for seed in 0..<2 {
            let prepared = try await library.prepareAsset(data: TestLibrary.uniqueJPEG(seed, width: 600, height: 400), filename: "\(seed).jpg")
            ids += try await library.performChanges { $0.createAsset(from: prepared) }.createdAssetIDs
        }
        // Its renditions gone and its original damaged since: the thumbnail cannot be made again.
        let path = try await library.originalPath(of: try library.asset(ids[0]))
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path))
        library.imageStore.removeImages(forAsset: ids[0])
        let looked = try await library.hashWaitingAssets(limit: 10)
        #expect(looked == 2)
        let status = try library.duplicatesStatus()
        #expect(status.hashedAssets + status.unreadableAssets + status.waitingAssets == 2)
        #expect(status == DuplicatesStatus(hashedAssets: 1, waitingAssets: 0, unreadableAssets: 1))
        #expect(try await library.hashWaitingAssets(limit: 10) == 0, "not tried again")
    }

    /// Scene `seed` of ``TestScenes`` encoded at `quality` or as WebP.
    static func picture(
        seed: UInt64, width: Int, height: Int, quality: Int = 92, brightness: Double = 1, crop: Double = 0, format: ImageFormat = .jpeg
    ) -> Data {
        let bytes = TestScenes.rgb(seed: seed, width: width, height: height, brightness: brightness, crop: crop)
        let bitmap = Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)
        return Data(try! ImageEncoding.encode(bitmap, as: format, options: EncodeOptions(quality: quality)))
    }

    static var python: String {
        let venv = repository.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    static func script(_ name: String) -> String { repository.appendingPathComponent("scripts/references/" + name).path }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
