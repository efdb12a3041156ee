import SepiaImage

/// Images generated in code, with fixed seeds.
enum TestImages {
    /// A deterministic pseudo-random generator (64-bit LCG) so tests never depend on a global seed.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func unit() -> Float { Float(next() % 1_000_001) / 1_000_000 }
    }

    /// Opaque noise in the working space.
    static func noise(_ width: Int, _ height: Int, seed: UInt64 = 1) -> PixelBuffer {
        var random = Random(seed: seed)
        return PixelBuffer(size: IntSize(width: width, height: height)) { _, _ in
            SIMD4(random.unit(), random.unit(), random.unit(), 1)
        }
    }

    /// Noise with varying alpha (premultiplied).
    static func translucentNoise(_ width: Int, _ height: Int, seed: UInt64 = 2) -> PixelBuffer {
        var random = Random(seed: seed)
        return PixelBuffer(size: IntSize(width: width, height: height)) { _, _ in
            let a = random.unit()
            return SIMD4(random.unit() * a, random.unit() * a, random.unit() * a, a)
        }
    }

    /// A horizontal ramp from 0 to 1 in every channel.
    static func ramp(_ width: Int, _ height: Int) -> PixelBuffer {
        PixelBuffer(size: IntSize(width: width, height: height)) { x, _ in
            let v = Float(x) / Float(max(1, width - 1))
            return SIMD4(v, v, v, 1)
        }
    }

    /// Every pixel distinct: r encodes x, g encodes y.
    static func coordinates(_ width: Int, _ height: Int) -> PixelBuffer {
        PixelBuffer(size: IntSize(width: width, height: height)) { x, y in
            SIMD4(Float(x), Float(y), Float(x * 1000 + y), 1)
        }
    }

    /// 8-bit RGB noise, as a decoder would deliver.
    static func bitmapNoise(_ width: Int, _ height: Int, seed: UInt64 = 3) -> Bitmap {
        var random = Random(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for _ in 0..<(width * height * 3) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
        return Bitmap(width: width, height: height, layout: .rgb, bytes: bytes)
    }
}
