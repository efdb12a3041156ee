import Testing

@testable import SepiaImage

@Suite struct ColorTests {
    @Test("8-bit sRGB → linear → 8-bit sRGB is the identity for all 256 codes")
    func roundTrip() async throws {
        var bytes = [UInt8]()
        for v in 0..<256 { bytes += [UInt8(v), UInt8(255 - v), UInt8((v * 7) % 256)] }
        let bitmap = Bitmap(width: 256, height: 1, layout: .rgb, bytes: bytes)
        let out = try await RenderContext(options: RenderOptions(threadCount: 1)).renderBitmap(Image(bitmap: bitmap))
        #expect(out == bitmap)
    }

    @Test("the sRGB curve matches the IEC 61966-2-1 formula")
    func curve() {
        #expect(abs(SRGB.toLinear(0.5) - 0.214_041) < 1e-5)
        #expect(abs(SRGB.fromLinear(0.214_041) - 0.5) < 1e-5)
        #expect(SRGB.toLinear(0.04) == Float(0.04) / 12.92)
    }

    @Test("the encode table, filled step by step, holds the rounded code of every one of its 65 536 entries")
    func encodeTable() {
        let table = SRGB.encodeTable
        #expect(table.count == SRGB.encodeTableSize)
        let mismatches = (0..<SRGB.encodeTableSize).filter { Int(table[$0]) != SRGB.encodedCode($0) }
        #expect(mismatches.isEmpty, "first mismatches at \(mismatches.prefix(5))")
    }

    @Test("the output encoder clamps (NaN to 0) and rounds each channel to its table entry, as the formula says")
    func outputEncoder() {
        let values: [Float] = [
            0, 1, -0.5, 1.5, .nan, .infinity, -.infinity, 0.5, 0.0031308, 1e-9, 0.999_999, 0.214_041, 0.75, 1e-4, 0.3,
        ]
        var pixels: [SIMD4<Float>] = []
        for (i, r) in values.enumerated() {
            for g in values { pixels.append(SIMD4(r, g, values[(i * 7) % values.count], 1)) }
        }
        let table = SRGB.encodeTable
        let scale = Float(SRGB.encodeTableSize - 1)
        func expected(_ x: Float) -> UInt8 {
            let c: Float = x > 0 ? min(x, 1) : 0
            return table[Int((c * scale).rounded(.toNearestOrEven))]
        }
        var out = [UInt8](repeating: 0, count: pixels.count * 3)
        table.withUnsafeBufferPointer { t in
            pixels.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    OutputRowEncoder.encode(
                        p.baseAddress!, count: pixels.count, layout: .rgb, opaque: true, background: .zero, table: t.baseAddress!,
                        into: o.baseAddress!)
                }
            }
        }
        let wrong = pixels.indices.filter { i in
            (0..<3).contains { out[3 * i + $0] != expected(pixels[i][$0]) }
        }
        #expect(wrong.isEmpty, "first wrong pixels: \(wrong.prefix(3).map { pixels[$0] })")
    }

    @Test("composed matrices equal applying them one after the other")
    func composition() {
        let a = ColorMatrix(
            rVector: [0.9, 0.1, 0, 0], gVector: [0.2, 0.7, 0.1, 0], bVector: [0, 0.3, 0.6, 0.1], biasVector: [0.01, 0.02, 0.03, 0])
        let b = SepiaTone.sepiaMatrix.mixedWithIdentity(0.6)
        let p: SIMD4<Float> = [0.3, 0.6, 0.2, 0.8]
        let sequential = b.apply(to: a.apply(to: p))
        let composed = a.followed(by: b).apply(to: p)
        for i in 0..<4 { #expect(abs(sequential[i] - composed[i]) < 1e-6) }
    }

    @Test("consecutive colour matrices fold into one kernel")
    func folding() {
        let image = Image(pixels: TestImages.noise(4, 4)).applying(SepiaTone(intensity: 0.5)).applying(SepiaTone(intensity: 0.2))
            .applyingColorMatrix(ColorMatrix(rVector: [0.5, 0, 0, 0]))
        let chain = image.recipe as? PointRecipe
        #expect(chain?.kernels.count == 1)
    }
}
