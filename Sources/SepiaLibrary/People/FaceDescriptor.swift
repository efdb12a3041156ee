import Foundation

/// How face prints are checked, stored and compared: 128 Float32 values, kept as 512 bytes little-endian, at
/// a Euclidean distance from each other.
enum FaceDescriptor {
    /// The bytes one print takes in the database.
    static let byteCount = DetectedFace.descriptorLength * 4

    /// The print as the database keeps it.
    static func encode(_ values: [Float]) -> Data {
        var bytes = [UInt8](repeating: 0, count: values.count * 4)
        for (index, value) in values.enumerated() {
            let bits = value.bitPattern
            bytes[index * 4] = UInt8(truncatingIfNeeded: bits)
            bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: bits >> 16)
            bytes[index * 4 + 3] = UInt8(truncatingIfNeeded: bits >> 24)
        }
        return Data(bytes)
    }

    /// The print stored as `data`, appended to `values`; false (appending nothing) when `data` is not one.
    static func decode(_ data: Data, appendingTo values: inout [Float]) -> Bool {
        guard data.count == byteCount else { return false }
        let bytes = [UInt8](data)
        var index = 0
        while index < byteCount {
            let bits = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
            values.append(Float(bitPattern: bits))
            index += 4
        }
        return true
    }

    /// Refuses a face indexing must not record: a print of the wrong length or with a value that is not a finite
    /// number, a box with nothing inside the image, or a confidence that is not a finite number.
    static func validate(_ face: DetectedFace, number: Int, of assetID: String) throws(LibraryError) {
        guard face.descriptor.count == DetectedFace.descriptorLength else {
            throw LibraryError(
                .invalidRequest,
                "face \(number + 1)'s print has \(face.descriptor.count) values; a face print has exactly \(DetectedFace.descriptorLength)",
                subject: assetID)
        }
        guard face.descriptor.allSatisfy(\.isFinite) else {
            throw LibraryError(.invalidRequest, "face \(number + 1)'s print has a value that is not a finite number", subject: assetID)
        }
        guard face.boundingBox.area > 0 else {
            throw LibraryError(.invalidRequest, "face \(number + 1)'s box has no area inside the image", subject: assetID)
        }
        guard face.confidence.isFinite else {
            throw LibraryError(.invalidRequest, "face \(number + 1)'s confidence is not a finite number", subject: assetID)
        }
    }

    /// The squared Euclidean distance between the print at `x[xStart...]` and the one at `y[yStart...]`; once
    /// the sum passes `limit` it stops and returns what it has (more than `limit`, at most the distance).
    static func squaredDistance(_ x: [Float], _ xStart: Int, _ y: [Float], _ yStart: Int, limit: Float) -> Float {
        var sum: Float = 0
        var offset = 0
        while offset < DetectedFace.descriptorLength {
            var a: Float = 0
            var b: Float = 0
            var c: Float = 0
            var d: Float = 0
            var i = offset
            let end = offset + 16
            while i < end {
                let d0 = x[xStart + i] - y[yStart + i]
                let d1 = x[xStart + i + 1] - y[yStart + i + 1]
                let d2 = x[xStart + i + 2] - y[yStart + i + 2]
                let d3 = x[xStart + i + 3] - y[yStart + i + 3]
                a += d0 * d0
                b += d1 * d1
                c += d2 * d2
                d += d3 * d3
                i += 4
            }
            sum += (a + b) + (c + d)
            if sum > limit { return sum }
            offset = end
        }
        return sum
    }
}
