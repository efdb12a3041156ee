/// Seeded value noise on an integer lattice, a pure function of position: the grain of ``FilmGrain``.
///
/// The lattice point (`i`, `j`) holds
/// ```
/// h(i, j) = pcg(i + pcg(j + pcg(seed)))          (32-bit unsigned arithmetic, wrapping; i, j two's complement)
/// r(i, j) = (⌊h / 512⌋ + 0.5) / 2²² − 1            (uniform in −1…1, mean 0, standard deviation 1/√3)
/// ```
/// with `pcg` the PCG hash of Jarzynski and Olano ("Hash Functions for GPU Rendering", 2020):
/// `s = v · 747796405 + 2891336453`, `w = ((s >> ((s >> 28) + 4)) ^ s) · 277803737`, `pcg(v) = (w >> 22) ^ w`.
///
/// At a point (`u`, `v`) in lattice units, with `i = ⌊u⌋`, `j = ⌊v⌋`, `sx = smoothstep(u − i)`,
/// `sy = smoothstep(v − j)` (`smoothstep(f) = f² (3 − 2f)`), the noise is the bilinear mix of the four corners
/// divided by its own standard deviation at that phase,
/// ```
/// n = mix(mix(r(i, j), r(i+1, j), sx), mix(r(i, j+1), r(i+1, j+1), sx), sy) / √((sx² + (1 − sx)²) (sy² + (1 − sy)²))
/// ```
/// so that `n` has the lattice values' standard deviation (1/√3) wherever it is sampled: between lattice
/// points a plain mix would be weaker, and pixels sampling the lattice at a fixed phase (a grain size of
/// exactly one pixel samples every cell at its centre) would see weaker grain.
struct GrainNoise: Sendable {
    /// `pcg(seed)`, shared by every row.
    let seedHash: UInt32

    init(seed: UInt32) {
        seedHash = Self.pcg(seed)
    }

    /// The PCG hash (RXS-M-XS output of one LCG step).
    @inline(__always)
    static func pcg(_ v: UInt32) -> UInt32 {
        let s = v &* 747_796_405 &+ 2_891_336_453
        let w = ((s >> ((s >> 28) &+ 4)) ^ s) &* 277_803_737
        return (w >> 22) ^ w
    }

    /// The hash of row `j`, to combine with columns by ``value(column:rowHash:)``.
    @inline(__always)
    func rowHash(_ j: Int) -> UInt32 {
        Self.pcg(UInt32(truncatingIfNeeded: j) &+ seedHash)
    }

    /// `r(i, j)` for the row whose ``rowHash(_:)`` is given.
    @inline(__always)
    static func value(column i: Int, rowHash: UInt32) -> Float {
        let h = pcg(UInt32(truncatingIfNeeded: i) &+ rowHash)
        return (Float(h >> 9) + 0.5) * (1 / 4_194_304) - 1
    }

    /// `smoothstep(f) = f² (3 − 2f)`.
    @inline(__always)
    static func smooth(_ f: Float) -> Float {
        f * f * (3 - 2 * f)
    }

    /// `1 / √(s² + (1 − s)²)`, one axis's share of the normalisation.
    @inline(__always)
    static func normalisation(_ s: Float) -> Float {
        1 / (s * s + (1 - s) * (1 - s)).squareRoot()
    }

    /// The noise at (`u`, `v`) in lattice units.
    func value(u: Float, v: Float) -> Float {
        let fi = u.rounded(.down), fj = v.rounded(.down)
        let i = Int(fi), j = Int(fj)
        let sx = Self.smooth(u - fi), sy = Self.smooth(v - fj)
        let r0 = rowHash(j), r1 = rowHash(j &+ 1)
        let a = Self.value(column: i, rowHash: r0), b = Self.value(column: i &+ 1, rowHash: r0)
        let c = Self.value(column: i, rowHash: r1), d = Self.value(column: i &+ 1, rowHash: r1)
        let top = a + (b - a) * sx, bottom = c + (d - c) * sx
        return (top + (bottom - top) * sy) * (Self.normalisation(sx) * Self.normalisation(sy))
    }
}
