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
            // Four lines at a time with their sums in registers: four independent dependency chains.
            var k = 0
            while k + 4 <= rows {
                let l0 = s0 + k * srcStride
                let l1 = l0 + srcStride
                let l2 = l1 + srcStride
                let l3 = l2 + srcStride
                let e0 = d0 + k * dstStride
                let e1 = e0 + dstStride
                let e2 = e1 + dstStride
                let e3 = e2 + dstStride
                var u0 = sums[k]
                var u1 = sums[k + 1]
                var u2 = sums[k + 2]
                var u3 = sums[k + 3]
                // The pixel leaving the window is the next pixel's left end tap: carried, not loaded again.
                var p0 = l0[x - r - 1]
                var p1 = l1[x - r - 1]
                var p2 = l2[x - r - 1]
                var p3 = l3[x - r - 1]
                for i in x..<blockEnd {
                    let a0 = l0[i + r + 1]
                    let a1 = l1[i + r + 1]
                    let a2 = l2[i + r + 1]
                    let a3 = l3[i + r + 1]
                    let q0 = l0[i - r]
                    let q1 = l1[i - r]
                    let q2 = l2[i - r]
                    let q3 = l3[i - r]
                    e0[i] = (u0 + (p0 + a0) * alpha) * norm
                    e1[i] = (u1 + (p1 + a1) * alpha) * norm
                    e2[i] = (u2 + (p2 + a2) * alpha) * norm
                    e3[i] = (u3 + (p3 + a3) * alpha) * norm
                    u0 = u0 + (a0 - q0)
                    u1 = u1 + (a1 - q1)
                    u2 = u2 + (a2 - q2)
                    u3 = u3 + (a3 - q3)
                    p0 = q0
                    p1 = q1
                    p2 = q2
                    p3 = q3
                }
                k += 4
            }
            while k < rows {
                let line = s0 + k * srcStride
                let e = d0 + k * dstStride
                var sum = sums[k]
                for i in x..<blockEnd {
                    e[i] = (sum + (line[i - r - 1] + line[i + r + 1]) * alpha) * norm
                    sum = sum + (line[i + r + 1] - line[i - r])
                }
                k += 1
            }
            x = blockEnd
        }
    }

    /// One extended-box pass down columns that carries its running sum from call to call: writes rows `output`
    /// through `out(i)`. `sum` (a row of `width` pixels) must hold the running sum of `output.lowerBound` left
    /// by the previous call, unless that row is an anchor, where the sum restarts: any row is computed by the
    /// same additions in the same order, however the rows are split between calls.
    ///
    /// Four rows are made per sweep along the row, with the sum in a register between them: a row that leaves
    /// the window is the next row's end tap, so four rows read ten rows and the sum once, not sixteen and four.
    static func boxColumns(
        rows: (Int) -> UnsafeMutablePointer<SIMD4<Float>>, output: Range<Int>, width: Int, pass: BlurPlan.BoxPass,
        sum: UnsafeMutablePointer<SIMD4<Float>>, out: (Int) -> UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let r = pass.radius
        let alpha = pass.alpha
        let norm = pass.norm
        var i = output.lowerBound
        while i < output.upperBound {
            let anchor = pass.anchor(before: i)
            if anchor == i {
                sum.update(repeating: .zero, count: width)
                for j in (i - r)...(i + r) {
                    let row = rows(j)
                    for x in 0..<width { sum[x] += row[x] }
                }
            }
            let segmentEnd = min(output.upperBound, anchor + BlurPlan.anchor)
            while i + 4 <= segmentEnd {
                let before = rows(i - r - 1)
                let sub0 = rows(i - r)
                let sub1 = rows(i - r + 1)
                let sub2 = rows(i - r + 2)
                let sub3 = rows(i - r + 3)
                let add0 = rows(i + r + 1)
                let add1 = rows(i + r + 2)
                let add2 = rows(i + r + 3)
                let add3 = rows(i + r + 4)
                let dst0 = out(i)
                let dst1 = out(i + 1)
                let dst2 = out(i + 2)
                let dst3 = out(i + 3)
                for x in 0..<width {
                    var s = sum[x]
                    let u0 = sub0[x]
                    let u1 = sub1[x]
                    let u2 = sub2[x]
                    let a0 = add0[x]
                    let a1 = add1[x]
                    let a2 = add2[x]
                    let a3 = add3[x]
                    dst0[x] = (s + (before[x] + a0) * alpha) * norm
                    s = s + (a0 - u0)
                    dst1[x] = (s + (u0 + a1) * alpha) * norm
                    s = s + (a1 - u1)
                    dst2[x] = (s + (u1 + a2) * alpha) * norm
                    s = s + (a2 - u2)
                    dst3[x] = (s + (u2 + a3) * alpha) * norm
                    sum[x] = s + (a3 - sub3[x])
                }
                i += 4
            }
            while i < segmentEnd {
                let add = rows(i + r + 1)
                let sub = rows(i - r)
                let before = rows(i - r - 1)
                let dst = out(i)
                for x in 0..<width {
                    let s = sum[x]
                    dst[x] = (s + (before[x] + add[x]) * alpha) * norm
                    sum[x] = s + (add[x] - sub[x])
                }
                i += 1
            }
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
