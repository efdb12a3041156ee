import Foundation

/// A 64-bit perceptual hash of a picture (the DCT hash, "pHash"): what the picture looks like at 32 × 32 grey
/// pixels, reduced to which of its 64 lowest frequencies are above their median. A resized, recompressed,
/// re-exported, slightly cropped or brightened copy hashes within a few bits of its original; two different
/// pictures differ in about half of them.
///
/// The hash is the one Zauner's "Implementation and Benchmarking of Perceptual Image Hash Functions" (2010)
/// describes and PyPI's ImageHash computes as `phash`: the image, as luma (ITU-R BT.601), is shrunk to 32 × 32 by
/// averaging the pixels each output pixel covers; a 2-D DCT-II is taken; the 8 × 8 lowest frequencies
/// (their top-left corner) are compared with their median. Bit 63 is the DC term's, bit 0 the highest
/// frequency's (row-major).
public struct PerceptualHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 64 bits.
    public var value: UInt64

    /// The version of the hash computation: a library records it beside each hash, and hashes of an older
    /// version are computed again.
    public static let algorithm = 1

    /// A hash of these 64 bits (one read back from storage).
    public init(value: UInt64) {
        self.value = value
    }

    /// The number of bits in which two hashes differ (0 … 64).
    public func distance(to other: PerceptualHash) -> Int {
        (value ^ other.value).nonzeroBitCount
    }

    /// Sixteen hexadecimal digits.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of an 8-bit RGB or grey image of `width` × `height` pixels, `channels` bytes per pixel (1 grey,
    /// 3 RGB, 4 RGBA: alpha is ignored), rows packed. Nil when the image is empty or the buffer is short.
    public init?(pixels: [UInt8], width: Int, height: Int, channels: Int) {
        guard width > 0, height > 0, [1, 3, 4].contains(channels), pixels.count >= width * height * channels else { return nil }
        self.init(grid: Self.luma32(pixels: pixels, width: width, height: height, channels: channels))
    }

    /// The hash of a 32 × 32 grid of luma values (row-major, 1 024 of them), as the DCT step receives it.
    public init(grid: [Double]) {
        precondition(grid.count == Self.side * Self.side, "a 32 × 32 grid")
        let basis = Self.basis
        let n = Self.side
        // rows: the 8 lowest vertical frequencies of each column; then the 8 lowest horizontal ones of those.
        var vertical = [Double](repeating: 0, count: 8 * n)
        for k in 0..<8 {
            for x in 0..<n {
                var sum = 0.0
                for y in 0..<n { sum += basis[k * n + y] * grid[y * n + x] }
                vertical[k * n + x] = sum
            }
        }
        var low = [Double](repeating: 0, count: 64)
        for k in 0..<8 {
            for l in 0..<8 {
                var sum = 0.0
                for x in 0..<n { sum += basis[l * n + x] * vertical[k * n + x] }
                low[k * 8 + l] = sum
            }
        }
        let sorted = low.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for value in low { bits = bits << 1 | (value > median ? 1 : 0) }
        self.value = bits
    }

    static let side = 32

    /// DCT-II's basis, unnormalised as SciPy's `dct` is: `2 cos(π k (2n + 1) / 64)` for the 8 lowest `k`.
    static let basis: [Double] = (0..<8).flatMap { k in
        (0..<32).map { n in 2 * cos(Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * 32)) }
    }

    /// Luma averaged over the area each of the 32 × 32 cells covers (fractional pixels weighted by their share).
    static func luma32(pixels: [UInt8], width: Int, height: Int, channels: Int) -> [Double] {
        let n = side
        // Each source column's and row's share of the cells it falls in, in cells: a cell's shares add up to 1.
        func weights(_ length: Int) -> [[(Int, Double)]] {
            let scale = Double(n) / Double(length)
            return (0..<length).map { i in
                let start = Double(i) * scale
                let end = start + scale
                var parts: [(Int, Double)] = []
                var cell = Int(start)
                while Double(cell) < end && cell < n {
                    let overlap = min(end, Double(cell + 1)) - max(start, Double(cell))
                    if overlap > 1e-12 { parts.append((cell, overlap)) }
                    cell += 1
                }
                return parts
            }
        }
        let columns = weights(width)
        let rows = weights(height)
        var grid = [Double](repeating: 0, count: n * n)
        var row = [Double](repeating: 0, count: n)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                for i in 0..<n { row[i] = 0 }
                var offset = y * width * channels
                for x in 0..<width {
                    let luma: Double
                    if channels == 1 {
                        luma = Double(p[offset])
                    } else {
                        luma = (299 * Double(p[offset]) + 587 * Double(p[offset + 1]) + 114 * Double(p[offset + 2])) / 1000
                    }
                    for (cell, weight) in columns[x] { row[cell] += luma * weight }
                    offset += channels
                }
                for (cell, weight) in rows[y] {
                    for i in 0..<n { grid[cell * n + i] += row[i] * weight }
                }
            }
        }
        // Weighted by area in cells, each cell's sum is its mean.
        return grid
    }
}
