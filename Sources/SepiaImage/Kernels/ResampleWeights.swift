import Foundation

/// The taps of a separable resampling filter along one axis: for each output index, a run of consecutive
/// input indices and their weights. Computed once per render so every tile uses identical weights.
struct ResampleWeights: Sendable {
    /// First input index (absolute) of each output index.
    let starts: [Int]
    /// Number of taps of each output index.
    let counts: [Int]
    /// Stride of ``weights`` per output index.
    let stride: Int
    /// `weights[i * stride + k]` multiplies input `starts[i] + k`.
    let weights: [Float]

    /// Lanczos-3 weights mapping `inputCount` pixels starting at `inputStart` onto `outputCount` pixels.
    ///
    /// Pixel centres are aligned (`x_in = (x_out + 0.5) · span/out − 0.5`). `inputSpan` is the width of the
    /// image in input pixels, normally `inputCount`; after a reduction whose last block was partial (shrink-on-
    /// load, block averaging) it is the exact fraction, so the output stays aligned with the original image.
    /// When shrinking, the kernel is widened by the reduction factor so it averages every input pixel it covers.
    /// Taps beyond the edges are folded onto the edge pixel (edge replication), and each set of weights is
    /// normalised to sum to 1.
    static func lanczos3(inputStart: Int, inputCount: Int, inputSpan: Double? = nil, outputCount: Int) -> ResampleWeights {
        precondition(inputCount > 0 && outputCount > 0)
        let ratio = (inputSpan ?? Double(inputCount)) / Double(outputCount)
        let filterScale = max(1, ratio)
        let support = 3 * filterScale
        let maxTaps = Int((2 * support).rounded(.up)) + 2
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * maxTaps)
        var scratch = [Double](repeating: 0, count: maxTaps + 2)
        for i in 0..<outputCount {
            let center = (Double(i) + 0.5) * ratio - 0.5
            let lo = Int((center - support).rounded(.up))
            let hi = Int((center + support).rounded(.down))
            let first = min(max(lo, 0), inputCount - 1)
            let last = min(max(hi, 0), inputCount - 1)
            let n = last - first + 1
            for k in 0..<n { scratch[k] = 0 }
            var total = 0.0
            for j in lo...max(lo, hi) {
                let w = lanczos3((Double(j) - center) / filterScale)
                if w == 0 { continue }
                let clamped = min(max(j, 0), inputCount - 1)
                scratch[clamped - first] += w
                total += w
            }
            if total == 0 {
                // Degenerate (should not happen with support ≥ 3): take the nearest pixel.
                scratch[min(max(Int(center.rounded()), first), last) - first] = 1
                total = 1
            }
            starts[i] = inputStart + first
            counts[i] = n
            for k in 0..<n {
                weights[i * maxTaps + k] = Float(scratch[k] / total)
            }
        }
        return ResampleWeights(starts: starts, counts: counts, stride: maxTaps, weights: weights)
    }

    @inline(__always)
    private static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    /// The Lanczos window of three lobes.
    static func lanczos3(_ x: Double) -> Double {
        let ax = abs(x)
        if ax >= 3 { return 0 }
        return sinc(x) * sinc(x / 3)
    }

    /// The input indices (absolute) read by output indices `range` (relative to the output start).
    func inputRange(for range: Range<Int>) -> Range<Int> {
        var lo = Int.max
        var hi = Int.min
        for i in range {
            lo = min(lo, starts[i])
            hi = max(hi, starts[i] + counts[i])
        }
        return lo..<hi
    }
}
