import Foundation
import SepiaLibrary

/// Faces recorded straight into a library, as indexing would record them, for tests of who may see and change
/// them (no models needed): each face's print is drawn from a seed, far from every other's, so that no two are
/// grouped unless a test says whose they are.
enum TestFaces {
    /// 128 values in -1…1 from `seed`: two prints of different seeds are about 6.5 apart, ten times dlib's 0.6.
    static func print(_ seed: Int) -> [Float] {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<DetectedFace.descriptorLength).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(state % 2001) / 1000 - 1
        }
    }

    /// Records one face in the middle of `asset` (replacing the faces it had) and returns its identifier.
    @discardableResult
    static func record(in library: PhotoLibrary, asset: String, seed: Int) throws -> String {
        let face = DetectedFace(boundingBox: FaceBox(x: 0.3, y: 0.25, width: 0.4, height: 0.5), confidence: 1, descriptor: print(seed))
        let recorded = try library.recordFaces([face], for: asset, algorithm: FaceIndexing.algorithm)
        guard let id = recorded.first?.id else { throw LibraryError(.notFound, "no face was recorded", subject: asset) }
        return id
    }
}
