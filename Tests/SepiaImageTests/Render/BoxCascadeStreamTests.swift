import Testing

@testable import SepiaImage

/// The rolling vertical passes of a box-cascade blur: the same rows however they are asked for.
@Suite struct BoxCascadeStreamTests {
    static let width = 7
    static let passes: [BlurPlan.BoxPass] = {
        guard case .boxes(let passes) = BlurPlan.gaussian(sigma: 6) else { return [] }
        return passes
    }()

    /// Deterministic pseudo-random input rows, the same for every call.
    static func horizontal(_ rows: Range<Int>, _ view: TileView) {
        for y in rows {
            for x in 0..<width {
                let h = UInt32(truncatingIfNeeded: (y &* 7919) ^ (x &* 104_729)) &* 2_654_435_761
                view.row(y)[x] = SIMD4(Float(h % 1000) / 1000, Float(h % 777) / 777, Float(h % 555) / 555, 1)
            }
        }
    }

    /// Rows `first..<end` of a stream started at `first`, advanced by `steps` rows at a time (cycled).
    static func rows(from first: Int, to end: Int, steps: [Int]) -> [SIMD4<Float>] {
        let stream = BoxCascadeStream(columns: 0..<width, passes: passes, firstRow: first)
        var output = [SIMD4<Float>](repeating: .zero, count: (end - first) * width)
        var step = 0
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while stream.nextRow < end {
                let target = min(end, stream.nextRow + steps[step % steps.count])
                step += 1
                stream.advance(
                    to: target, horizontal: { horizontal($0, $1) }, out: { base + ($0 - first) * width })
            }
        }
        return output
    }

    @Test("rows do not depend on how the stream is advanced")
    func stepsDoNotMatter() {
        // Given one advance over 300 rows as the reference
        let reference = Self.rows(from: 0, to: 300, steps: [300])
        // When advancing by one row, by odd steps and by steps longer than the rings
        for steps in [[1], [5, 37, 2], [64], [150, 3]] {
            // Then every value is bit-identical
            let identical = Self.rows(from: 0, to: 300, steps: steps) == reference
            #expect(identical, "steps \(steps)")
        }
    }

    @Test("a stream started lower down produces the same rows as one from the top")
    func startDoesNotMatter() {
        let reference = Self.rows(from: -20, to: 300, steps: [13])
        for first in [0, 1, 63, 64, 200] {
            let rows = Self.rows(from: first, to: 300, steps: [9])
            let identical = rows == Array(reference[((first + 20) * Self.width)...])
            #expect(identical, "first row \(first)")
        }
    }

    @Test("every row is the four extended boxes, summed directly in Double")
    func matchesDirectSums() {
        let first = -5
        let end = 300
        let output = Self.rows(from: first, to: end, steps: [1, 4, 9, 64])
        let reach = Self.passes.reduce(0) { $0 + $1.radius + 1 }
        let low = first - reach
        let high = end + reach
        let storage = TileStorage(capacity: Self.width * (high - low))
        let input = TileView(rect: IntRect(x: 0, y: low, width: Self.width, height: high - low), base: storage.base, stride: Self.width)
        Self.horizontal(low..<high, input)
        var worst = 0.0
        for x in 0..<Self.width {
            for channel in 0..<3 {
                // values[i - low] is row i of the current pass.
                var values = (low..<high).map { Double(input.row($0)[x][channel]) }
                for pass in Self.passes {
                    let r = pass.radius
                    let alpha = Double(pass.alpha)
                    let norm = 1 / (Double(2 * r + 1) + 2 * alpha)
                    var next = values
                    for i in (low + r + 1)..<(high - r - 1) {
                        var sum = 0.0
                        for j in (i - r)...(i + r) { sum += values[j - low] }
                        sum += alpha * (values[i - r - 1 - low] + values[i + r + 1 - low])
                        next[i - low] = sum * norm
                    }
                    values = next
                }
                for y in first..<end {
                    worst = max(worst, abs(Double(output[(y - first) * Self.width + x][channel]) - values[y - low]))
                }
            }
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    @Test("the output is a blur: a constant input stays constant")
    func constantStaysConstant() {
        let stream = BoxCascadeStream(columns: 0..<3, passes: Self.passes, firstRow: 0)
        var output = [SIMD4<Float>](repeating: .zero, count: 40 * 3)
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            stream.advance(
                to: 40,
                horizontal: { rows, view in
                    for y in rows { view.row(y).update(repeating: SIMD4(0.25, 0.5, 0.75, 1), count: 3) }
                },
                out: { base + $0 * 3 })
        }
        for pixel in output {
            #expect(abs(pixel.x - 0.25) < 1e-5 && abs(pixel.y - 0.5) < 1e-5 && abs(pixel.z - 0.75) < 1e-5)
        }
    }
}
