import Foundation

@testable import SepiaLibrary

/// Face prints made up for tests: each person a random centre in 128 dimensions, each face of theirs the centre
/// plus Gaussian noise, from a seeded generator. With the defaults, two faces of one person are about 0.38 apart
/// and faces of two people about 0.98 (centres about 0.9 apart), as dlib's prints of one person are within its 0.6
/// threshold and of two people beyond it.
struct SyntheticFaces {
    /// The per-value spread of the centres: 0.9 / √256 makes two centres about 0.9 apart.
    static let centreSpread: Float = 0.9 / 16
    /// The per-value noise of a face: two faces of one person are √256 × 0.024 ≈ 0.38 apart.
    static let faceNoise: Float = 0.024

    private var state: UInt64
    private(set) var centres: [[Float]] = []
    let noise: Float

    init(people: Int, seed: UInt64, noise: Float = faceNoise) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        self.noise = noise
        for _ in 0..<people { centres.append((0..<DetectedFace.descriptorLength).map { _ in gaussian() * Self.centreSpread }) }
    }

    /// A person whose centre is `distance` from `person`'s (a sibling), added to the people; returns their number.
    mutating func addRelative(of person: Int, at distance: Float) -> Int {
        var direction = (0..<DetectedFace.descriptorLength).map { _ in gaussian() }
        let length = direction.reduce(0) { $0 + $1 * $1 }.squareRoot()
        direction = direction.map { $0 / length * distance }
        centres.append(zip(centres[person], direction).map { $0 + $1 })
        return centres.count - 1
    }

    /// A new face print of `person`.
    mutating func face(of person: Int) -> [Float] {
        centres[person].map { $0 + gaussian() * noise }
    }

    /// A detected face of `person`, at place `slot` (0, 1, …) from the left of its photo.
    mutating func detected(_ person: Int, slot: Int = 0, confidence: Float = 1) -> DetectedFace {
        DetectedFace(
            boundingBox: FaceBox(x: 0.05 + Double(slot % 8) * 0.12, y: 0.1 + Double(slot / 8) * 0.2, width: 0.1, height: 0.15),
            confidence: confidence, descriptor: face(of: person))
    }

    static func distance(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    private mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A standard normal value (Box–Muller).
    private mutating func gaussian() -> Float {
        let u1 = max(Double(next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }
}
