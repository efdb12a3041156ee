import Foundation
import SepiaLibrary

/// Gives a library of imported photos the faces of many people, for the People view's benchmark
/// (scripts/browser/bench_browser.py --people), through the library's own API (``PhotoLibrary/recordFaces(_:algorithm:)``,
/// which groups them as indexing does).
///
///     PeopleLibrary LIBRARY FACES_JSON [--faces N] [--people P] [--named K] [--seed S]
///
/// FACES_JSON is the `.faces.json` scripts/bench/face_photos.py writes beside the photos (with `--chips-only`: each
/// box is a face): the boxes of each file, in pixels. Each box becomes a face of the asset imported from that file,
/// until N faces (default 10 000) are recorded; every other asset is recorded as searched, with no face. The
/// prints are made up, as the grouping's tests make them: P people (default 300) whose centres are about 0.9 apart,
/// and each face its person's centre with noise (two faces of one person about 0.38 apart), so that the grouping
/// makes P people. Who is in a photo is drawn at random, some people much more often than others (weights 1/k^0.8),
/// never one person twice in a photo; K people (default 30) are then named. Prints the status.
@main
struct PeopleLibrary {
    struct Placed: Decodable {
        var box: [Double]
        var kind: String
    }

    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String, _ value: Int) -> Int {
            guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count, let number = Int(arguments[at + 1]) else {
                return value
            }
            arguments.removeSubrange(at...(at + 1))
            return number
        }
        let total = option("--faces", 10_000)
        let peopleCount = option("--people", 300)
        let named = option("--named", 30)
        let seed = UInt64(option("--seed", 1))
        guard arguments.count == 2, peopleCount > 0 else {
            FileHandle.standardError.write(Data("usage: PeopleLibrary LIBRARY FACES_JSON [--faces N] [--people P] [--named K] [--seed S]\n".utf8))
            exit(64)
        }
        let placed = try JSONDecoder().decode([String: [Placed]].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        let library = try PhotoLibrary.open(at: arguments[0], configuration: LibraryConfiguration(watchesMemoryPressure: false))
        defer { library.close() }

        var prints = Prints(people: peopleCount, seed: seed)
        let weights = (0..<peopleCount).map { 1 / pow(Double($0 + 1), 0.8) }
        let assets = try library.fetchAssets().allObjects().sorted { $0.originalFilename < $1.originalFilename }
        var recorded = 0
        var batch: [String: [DetectedFace]] = [:]
        for asset in assets {
            var faces: [DetectedFace] = []
            let boxes = (placed[asset.originalFilename] ?? []).filter { $0.kind == "chip" && $0.box.count == 4 }
            let people = prints.distinctPeople(min(boxes.count, total - recorded, peopleCount), weights: weights)
            for (box, person) in zip(boxes, people) {
                let width = Double(asset.pixelWidth)
                let height = Double(asset.pixelHeight)
                faces.append(
                    DetectedFace(
                        boundingBox: FaceBox(x: box.box[0] / width, y: box.box[1] / height, width: box.box[2] / width, height: box.box[3] / height),
                        confidence: 1, descriptor: prints.face(of: person)))
            }
            recorded += faces.count
            batch[asset.id] = faces
            if batch.count == 200 {
                try library.recordFaces(batch, algorithm: FaceIndexing.algorithm)
                batch = [:]
            }
        }
        try library.recordFaces(batch, algorithm: FaceIndexing.algorithm)
        for (index, person) in try library.people().prefix(named).enumerated() {
            try library.renamePerson(person.id, to: "Person \(index + 1)")
        }
        let status = try library.faceIndexStatus(algorithm: FaceIndexing.algorithm)
        print(
            "\(status.faces) faces in \(status.indexedAssets) items: \(status.people) people (\(status.namedPeople) named), "
                + "\(status.unassignedFaces) faces not yet anyone's")
    }
}

/// Made-up face prints of a number of people, from a seed.
struct Prints {
    /// The per-value spread of the centres: 0.9 / √256 makes two centres about 0.9 apart.
    static let centreSpread = 0.9 / 16
    /// The per-value noise of a face: two faces of one person are √256 × 0.024 ≈ 0.38 apart.
    static let faceNoise = 0.024

    private var state: UInt64
    private var centres: [[Double]] = []

    init(people: Int, seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for _ in 0..<people { centres.append((0..<DetectedFace.descriptorLength).map { _ in gaussian() * Self.centreSpread }) }
    }

    /// A new face print of `person`.
    mutating func face(of person: Int) -> [Float] {
        centres[person].map { Float($0 + gaussian() * Self.faceNoise) }
    }

    /// `count` different people, each drawn with its weight.
    mutating func distinctPeople(_ count: Int, weights: [Double]) -> [Int] {
        var chosen: [Int] = []
        let sum = weights.reduce(0, +)
        while chosen.count < max(0, count) {
            var target = uniform() * sum
            var person = weights.count - 1
            for (index, weight) in weights.enumerated() {
                target -= weight
                if target < 0 {
                    person = index
                    break
                }
            }
            if !chosen.contains(person) { chosen.append(person) }
        }
        return chosen
    }

    private mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    private mutating func uniform() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    private mutating func gaussian() -> Double {
        let u = max(uniform(), .leastNonzeroMagnitude)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}
