import Foundation

/// Photo-like pictures for the near-duplicate tests: smooth shapes and colours of a seeded pattern, made at any
/// size, optionally over the middle of the scene only (a crop) and brightened, as 8-bit RGB pixels. The same
/// seed at another size is the same scene resized; different seeds are unrelated scenes.
public enum TestScenes {
    /// The RGB pixels (rows packed) of scene `seed` at `width` × `height`, showing the middle `1 - crop` of it,
    /// each value multiplied by `brightness`.
    public static func rgb(seed: UInt64, width: Int, height: Int, brightness: Double = 1, crop: Double = 0) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        let waves = (0..<6).map { _ in (random.unit() * 9, random.unit() * 9, random.unit() * 6, 20 + random.unit() * 40) }
        let tint = (random.unit(), random.unit(), random.unit())
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let u = crop / 2 + (1 - crop) * Double(x) / Double(width)
                let v = crop / 2 + (1 - crop) * Double(y) / Double(height)
                var value = 110.0
                for (fx, fy, phase, amplitude) in waves { value += amplitude * sin(fx * u + phase) * cos(fy * v - phase) }
                let channels = [value * (0.7 + 0.6 * tint.0), value * (0.7 + 0.6 * tint.1), value * (0.7 + 0.6 * tint.2)]
                for (c, channel) in channels.enumerated() {
                    bytes[(y * width + x) * 3 + c] = UInt8(max(0, min(255, channel * brightness)))
                }
            }
        }
        return bytes
    }
}

/// SplitMix64: a small seeded generator, so that every run makes the same data.
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
