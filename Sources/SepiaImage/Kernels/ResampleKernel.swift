/// The inner loops of separable resampling and of integer box shrinking.
enum ResampleKernel {
    /// Horizontal pass: `dst[x] = Σ w · src[start + k]` for `count` outputs starting at output index `first`.
    /// `src` points at input index `srcStart`.
    static func horizontal(
        _ src: UnsafePointer<SIMD4<Float>>, srcStart: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        first: Int, count: Int, weights: UnsafePointer<Float>, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
        stride: Int
    ) {
        for i in 0..<count {
            let o = first + i
            let taps = counts[o]
            let w = weights + o * stride
            let s = src + (starts[o] - srcStart)
            var acc = SIMD4<Float>.zero
            var k = 0
            while k + 1 < taps {
                acc += s[k] * w[k]
                acc += s[k + 1] * w[k + 1]
                k += 2
            }
            if k < taps { acc += s[k] * w[k] }
            dst[i] = acc
        }
    }

    /// Vertical pass for one output row: `dst = Σ w_k · rows[k]`, each row `width` pixels.
    static func vertical(
        rows: UnsafePointer<SIMD4<Float>>, rowStride: Int, taps: Int, weights: UnsafePointer<Float>,
        width: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let w0 = weights[0]
        for x in 0..<width { dst[x] = rows[x] * w0 }
        var k = 1
        while k < taps {
            let w = weights[k]
            let r = rows + k * rowStride
            for x in 0..<width { dst[x] += r[x] * w }
            k += 1
        }
    }
}
