/// Film grain: seeded luminance noise, strongest in the mid-tones. Sepia's own filter (Core Image has none),
/// named `SepiaFilmGrain` in recipes; Photos' Black & White → Grain.
///
/// The pixel whose centre is at (`x`, `y`) in the image's coordinates (the top-left pixel's centre is
/// (0.5, 0.5)) gets the value noise `n` of ``GrainNoise`` at (`x / size`, `y / size`) — a pure function of
/// position and seed, so every render of a photo has the same grain, whatever its tiles and threads:
/// ```
/// r(i, j) = (⌊pcg(i + pcg(j + pcg(seed))) / 512⌋ + 0.5) / 2²² − 1     (32-bit PCG hash; uniform in −1…1)
/// n       = mix(mix(r(i, j), r(i+1, j), sx), mix(r(i, j+1), r(i+1, j+1), sx), sy)
///           / √((sx² + (1 − sx)²) (sy² + (1 − sy)²))
/// ```
/// with `i = ⌊x / size⌋`, `j = ⌊y / size⌋` and `sx`, `sy` the smoothstep of the fractional parts (float32
/// arithmetic). Then, per unpremultiplied pixel, with `e` its sRGB-encoded colour:
/// ```
/// L     = 0.2126 e_r + 0.7152 e_g + 0.0722 e_b
/// w     = 4 L (1 − L) when 0 < L < 1, else 0
/// δ     = 0.15 · amount · a(size) · n · w
/// a(g)  = 1.22 g / √(1 + (1.22 g)²)
/// rgb'  = rgb + decode(e + δ) − decode(e)          (per channel; alpha unchanged)
/// ```
/// The same offset `δ` goes to the three encoded channels (grain changes lightness, not hue); `w` makes it
/// fade to nothing at pure black and pure white and peak at mid-grey, as film grain does. The noise has mean 0,
/// so the mean of the encoded luma is kept; at `amount` 1 and the default size, mid-grey's encoded luma gets a
/// standard deviation of 0.076 (`0.15 · a(1.5) / √3`, about 19 levels in 8 bits).
///
/// `size` is the grain's lattice spacing in pixels, a distance: a recipe scaled for a preview
/// (``EditRecipe/scaled(by:)``) scales it with the photo, so the preview samples the same continuous noise as
/// the full-size render, at the preview's pixel centres. `a(g)` stands for what averaging does when a
/// full-size render is reduced: a pixel spanning many grain cells sees them average out, its grain weaker by
/// about `1 / cells across` (`a(g) ≈ 1.22 g` for small `g`), while grains larger than a pixel keep their
/// strength (`a → 1`). The grain's standard deviation in a render at scale 1/k matches that of the full-size
/// render box-reduced by k within 5 % on mid-grey at the default size (k = 2…32), and within about 10 % rms
/// over sizes 0.5…4 (up to 30 % where the grain falls on the pixel grid at an exact ratio). Sizes 0.5…4 are
/// for people; smaller ones are for scaled-down renders.
public struct FilmGrain: Filter {
    /// Sepia's own name, `SepiaFilmGrain`; keys `inputAmount`, `inputSize`, `inputSeed`.
    public static let descriptor = FilterDescriptor(
        name: "FilmGrain", coreImageName: "SepiaFilmGrain", displayName: "Film Grain",
        categories: [.stylize, .stillImage],
        summary: "Adds seeded film grain to the luminance, strongest in the mid-tones.",
        parameters: [
            .scalar(
                "amount", summary: "Strength of the grain; 0 leaves the image alone.", default: 0.5, minimum: 0, maximum: 1, slider: 0...1,
                identity: 0),
            .scalar(
                "size", kind: .distance, summary: "Size of a grain, in pixels.", default: 1.5, minimum: 0.01, maximum: 100, slider: 0.5...4),
            .scalar("seed", kind: .count, summary: "Which grain: each seed is a different pattern.", default: 0, minimum: 0, maximum: 4_294_967_295),
        ])

    /// Strength, 0…1; 0 is the identity.
    public var amount: Float
    /// Grain size in pixels, 0.01…100.
    public var size: Float
    /// The noise's seed, 0…2³² − 1.
    public var seed: Int

    /// Creates the filter; values are clamped to their ranges.
    public init(amount: Float = 0.5, size: Float = 1.5, seed: Int = 0) {
        self.amount = min(max(amount.isFinite ? amount : 0, 0), 1)
        self.size = min(max(size.isFinite ? size : 1.5, 0.01), 100)
        self.seed = min(max(seed, 0), 4_294_967_295)
    }

    /// The grain's strength before the mid-tone weight: `0.15 · amount · a(size)`.
    var strength: Float {
        let k = 1.22 * size
        return 0.15 * amount * (k / (1 + k * k).squareRoot())
    }

    /// The unchanged image when `amount` is 0; otherwise the grain, a function of each pixel's position.
    public func apply(to image: Image) -> Image {
        if amount == 0 || image.extent.isEmpty { return image }
        return image.applyingPointKernel(
            FilmGrainKernel(noise: GrainNoise(seed: UInt32(truncatingIfNeeded: seed)), inverseSize: 1 / size, strength: strength))
    }
}

/// ``FilmGrain``'s per-pixel work. Along a row the lattice column changes every `size` pixels, so the two
/// columns of corner values are carried from pixel to pixel.
struct FilmGrainKernel: PointKernel {
    let noise: GrainNoise
    let inverseSize: Float
    let strength: Float

    var colorMatrix: ColorMatrix? { nil }
    var preservesAlpha: Bool { true }

    func apply(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int, x: Int, y: Int) {
        let curve = TransferCurve.tables
        let v = (Float(y) + 0.5) * inverseSize
        let fj = v.rounded(.down)
        let j = Int(fj)
        let sy = GrainNoise.smooth(v - fj)
        let ny = GrainNoise.normalisation(sy)
        let row0 = noise.rowHash(j), row1 = noise.rowHash(j &+ 1)
        var column = 0, started = false
        // Corners: a = (i, j), b = (i + 1, j), c = (i, j + 1), d = (i + 1, j + 1).
        var a: Float = 0, b: Float = 0, c: Float = 0, d: Float = 0
        for k in 0..<count {
            let p = pixels[k]
            let e = curve.encode(p)
            let luma = 0.2126 * e[0] + 0.7152 * e[1] + 0.0722 * e[2]
            guard luma > 0 && luma < 1 else { continue }
            let u = (Float(x + k) + 0.5) * inverseSize
            let fi = u.rounded(.down)
            let i = Int(fi)
            if !started || i != column {
                if started && i == column &+ 1 {
                    a = b
                    c = d
                } else {
                    a = GrainNoise.value(column: i, rowHash: row0)
                    c = GrainNoise.value(column: i, rowHash: row1)
                }
                b = GrainNoise.value(column: i &+ 1, rowHash: row0)
                d = GrainNoise.value(column: i &+ 1, rowHash: row1)
                column = i
                started = true
            }
            let sx = GrainNoise.smooth(u - fi)
            let top = a + (b - a) * sx, bottom = c + (d - c) * sx
            let n = (top + (bottom - top) * sy) * (GrainNoise.normalisation(sx) * ny)
            let delta = strength * n * (4 * luma * (1 - luma))
            pixels[k] = SIMD4(
                p[0] + (curve.decode(e[0] + delta) - curve.decode(e[0])),
                p[1] + (curve.decode(e[1] + delta) - curve.decode(e[1])),
                p[2] + (curve.decode(e[2] + delta) - curve.decode(e[2])),
                p[3])
        }
    }
}
