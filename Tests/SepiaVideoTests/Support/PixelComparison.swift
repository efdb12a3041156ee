import Foundation

/// How two images of the same size differ, sample by sample (8-bit).
struct PixelDifference: CustomStringConvertible {
    /// The mean absolute difference.
    let mean: Double
    /// The 99th percentile of the absolute differences.
    let p99: Int
    /// The largest absolute difference.
    let max: Int

    /// The difference of `a` and `b`; two images of different sizes differ everywhere by 255.
    init(_ a: [UInt8], _ b: [UInt8]) {
        guard a.count == b.count else {
            (mean, p99, max) = (255, 255, 255)
            return
        }
        var histogram = [Int](repeating: 0, count: 256)
        var sum = 0
        for i in 0..<a.count {
            let d = abs(Int(a[i]) - Int(b[i]))
            histogram[d] += 1
            sum += d
        }
        mean = a.isEmpty ? 0 : Double(sum) / Double(a.count)
        max = histogram.lastIndex { $0 > 0 } ?? 0
        var seen = 0
        var percentile = 0
        for (d, n) in histogram.enumerated() {
            seen += n
            if Double(seen) >= 0.99 * Double(a.count) {
                percentile = d
                break
            }
        }
        p99 = percentile
    }

    var description: String { String(format: "mean %.3f, p99 %d, max %d", mean, p99, max) }
}
