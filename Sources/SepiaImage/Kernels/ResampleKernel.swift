/// The inner loops of separable resampling and of integer box shrinking.
enum ResampleKernel {
    /// Horizontal pass: `dst[x] = Σ w · src[start + k]` for `count` outputs starting at output index `first`.
    /// `src` points at input index `srcStart`.
    static func horizontal(
        _ src: UnsafePointer<SIMD4<Float>>, srcStart: Int, into dst: UnsafeMutablePointer<SIMD4<Float>>,
        first: Int, count: Int, weights: UnsafePointer<Float>, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
        stride: Int
    ) {
        // Four partial sums per pixel: one running sum would make every tap wait for the previous addition
        // (a chain as long as the filter, 17 taps at a 2.8x reduction), where four independent ones keep the
        // vector units busy.
        for i in 0..<count {
            let o = first + i
            let taps = counts[o]
            let w = weights + o * stride
            let s = src + (starts[o] - srcStart)
            var a0 = SIMD4<Float>.zero
            var a1 = SIMD4<Float>.zero
            var a2 = SIMD4<Float>.zero
            var a3 = SIMD4<Float>.zero
            var k = 0
            while k + 3 < taps {
                a0 += s[k] * w[k]
                a1 += s[k + 1] * w[k + 1]
                a2 += s[k + 2] * w[k + 2]
                a3 += s[k + 3] * w[k + 3]
                k += 4
            }
            while k < taps {
                a0 += s[k] * w[k]
                k += 1
            }
            dst[i] = (a0 + a1) + (a2 + a3)
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
