/// The inner loops of separable blurs: extended-box running sums anchored at fixed positions, and direct
/// symmetric convolution.
enum BlurKernel {
    /// One extended-box pass along `rows` lines at once (independent running sums keep the processor busy).
    /// Line `k` of the source starts at `src + k·srcStride` with absolute position `srcStart`; the output covers
    /// `output` (absolute) at `dst + k·dstStride`. The source must cover
    /// ``BlurPlan/boxInputRange(for:pass:)`` of `output`.
    static func boxLines(
        _ src: UnsafePointer<SIMD4<Float>>, srcStride: Int, srcStart: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        dstStride: Int, output: Range<Int>, rows: Int, pass: BlurPlan.BoxPass, sums: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let r = pass.radius
        let alpha = pass.alpha
        let norm = pass.norm
        let anchor = BlurPlan.anchor
        let s0 = src - srcStart  // s0[k * srcStride + i] is line k at absolute position i
        let d0 = dst - output.lowerBound
        var x = output.lowerBound
        while x < output.upperBound {
            let blockStart = pass.anchor(before: x)
            let blockEnd = min(blockStart + anchor, output.upperBound)
            for k in 0..<rows {
                let line = s0 + k * srcStride
                var sum = SIMD4<Float>.zero
                for i in (blockStart - r)...(blockStart + r) { sum += line[i] }
                var i = blockStart
                while i < x {
                    sum += line[i + r + 1] - line[i - r]
                    i += 1
                }
                sums[k] = sum
            }
            var i = x
            while i < blockEnd {
                for k in 0..<rows {
                    let line = s0 + k * srcStride
                    let sum = sums[k]
                    d0[k * dstStride + i] = (sum + (line[i - r - 1] + line[i + r + 1]) * alpha) * norm
                    sums[k] = sum + (line[i + r + 1] - line[i - r])
                }
                i += 1
            }
            x = blockEnd
        }
    }

    /// One extended-box pass down columns. `rows(j)` is the row at absolute `j` (width `width`); writes output
    /// rows `output` through `out(i)`. `sum` is a scratch row of `width` pixels.
    static func boxColumns(
        rows: (Int) -> UnsafeMutablePointer<SIMD4<Float>>, output: Range<Int>, width: Int, pass: BlurPlan.BoxPass,
        sum: UnsafeMutablePointer<SIMD4<Float>>, out: (Int) -> UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let r = pass.radius
        let alpha = pass.alpha
        let norm = pass.norm
        let anchor = BlurPlan.anchor
        var y = output.lowerBound
        while y < output.upperBound {
            let blockStart = pass.anchor(before: y)
            let blockEnd = min(blockStart + anchor, output.upperBound)
            sum.update(repeating: .zero, count: width)
            for j in (blockStart - r)...(blockStart + r) {
                let row = rows(j)
                for x in 0..<width { sum[x] += row[x] }
            }
            var i = blockStart
            while i < blockEnd {
                let add = rows(i + r + 1)
                let sub = rows(i - r)
                if i >= y {
                    let before = rows(i - r - 1)
                    let dst = out(i)
                    for x in 0..<width {
                        dst[x] = (sum[x] + (before[x] + add[x]) * alpha) * norm
                    }
                }
                for x in 0..<width { sum[x] += add[x] - sub[x] }
                i += 1
            }
            y = blockEnd
        }
    }

    /// Direct symmetric convolution along a line.
    static func kernelLine(
        _ src: UnsafePointer<SIMD4<Float>>, srcStart: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        output: Range<Int>, weights: UnsafePointer<Float>, radius: Int
    ) {
        let s0 = src - srcStart
        var o = 0
        for i in output {
            var acc = s0[i] * weights[0]
            for k in 1...max(1, radius) where k <= radius {
                acc += (s0[i - k] + s0[i + k]) * weights[k]
            }
            dst[o] = acc
            o += 1
        }
    }

    /// Direct symmetric convolution down columns for one output row.
    static func kernelColumns(
        rows: (Int) -> UnsafeMutablePointer<SIMD4<Float>>, row y: Int, width: Int, weights: UnsafePointer<Float>,
        radius: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let centre = rows(y)
        let w0 = weights[0]
        for x in 0..<width { dst[x] = centre[x] * w0 }
        if radius == 0 { return }
        for k in 1...radius {
            let up = rows(y - k)
            let down = rows(y + k)
            let w = weights[k]
            for x in 0..<width { dst[x] += (up[x] + down[x]) * w }
        }
    }
}
