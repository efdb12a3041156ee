internal import CLibRaw

/// What a camera's colour is, as LibRaw read it: the matrix from CIE XYZ to the camera's RGB, and the white
/// balance multipliers as shot and for daylight. It turns a white point named by colour temperature and tint into
/// the multipliers LibRaw develops with, and back.
///
/// The white point of a temperature and tint is Adobe's (the DNG SDK's `dng_temperature`, which Camera Raw and
/// Core Image's `neutralTemperature`/`neutralTint` follow): a point on Robertson's isotemperature line of that
/// temperature in CIE 1960 UCS, moved along the line by `tint / −3000`. The camera's neutral for that white is
/// the matrix times its XYZ; the multipliers are the neutral's inverse, green 1.
struct RAWCameraColor: Sendable, Hashable {
    /// XYZ → camera RGB, rows R, G, B.
    var cameraFromXYZ: [SIMD3<Double>]
    /// The multipliers the camera recorded for the shot (green 1), when it did.
    var asShot: SIMD3<Double>?
    /// The camera's daylight multipliers (green 1), when LibRaw knows them.
    var daylight: SIMD3<Double>?

    init(info: sepia_raw_info) {
        let m = info.cam_xyz
        var rows = [m.0, m.1, m.2].map { SIMD3($0.0, $0.1, $0.2) }
        let known = rows.allSatisfy { row in (0..<3).contains { row[$0] != 0 } && (0..<3).allSatisfy { row[$0].isFinite } }
        if !known || info.colors != 3 {
            // No matrix (a camera LibRaw has no colour data for): treat the camera as seeing sRGB, as dcraw does.
            rows = Self.sRGBFromXYZ
        }
        cameraFromXYZ = rows
        asShot = Self.normalized(SIMD3(info.cam_mul.0, info.cam_mul.1, info.cam_mul.2))
        daylight = Self.normalized(SIMD3(info.pre_mul.0, info.pre_mul.1, info.pre_mul.2))
    }

    init(cameraFromXYZ: [SIMD3<Double>], asShot: SIMD3<Double>?, daylight: SIMD3<Double>?) {
        self.cameraFromXYZ = cameraFromXYZ
        self.asShot = asShot
        self.daylight = daylight
    }

    /// IEC 61966-2-1's XYZ → linear sRGB (D65).
    static let sRGBFromXYZ: [SIMD3<Double>] = [
        SIMD3(3.2404542, -1.5371385, -0.4985314),
        SIMD3(-0.9692660, 1.8760108, 0.0415560),
        SIMD3(0.0556434, -0.2040259, 1.0572252),
    ]

    /// Multipliers scaled so that green is 1; nil unless all three are positive and finite.
    static func normalized(_ m: SIMD3<Double>) -> SIMD3<Double>? {
        guard m.x > 0, m.y > 0, m.z > 0, m.x.isFinite, m.y.isFinite, m.z.isFinite else { return nil }
        return m / m.y
    }

    /// The multipliers that make the white of `temperature` (kelvin) and `tint` neutral.
    func multipliers(temperature: Double, tint: Double) -> SIMD3<Double> {
        let xy = Self.chromaticity(temperature: temperature, tint: tint)
        let xyz = SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y)
        let neutral = SIMD3(
            (cameraFromXYZ[0] * xyz).sum(), (cameraFromXYZ[1] * xyz).sum(), (cameraFromXYZ[2] * xyz).sum())
        let clamped = SIMD3(max(neutral.x, 1e-6), max(neutral.y, 1e-6), max(neutral.z, 1e-6))
        let m = 1 / clamped
        return m / m.y
    }

    /// The temperature and tint whose white `multipliers` make neutral (the inverse of
    /// ``multipliers(temperature:tint:)``), or nil when the camera's matrix cannot be inverted.
    func temperatureAndTint(multipliers: SIMD3<Double>) -> (temperature: Double, tint: Double)? {
        guard let inverse = Self.inverse(cameraFromXYZ) else { return nil }
        let neutral = 1 / multipliers
        let xyz = SIMD3((inverse[0] * neutral).sum(), (inverse[1] * neutral).sum(), (inverse[2] * neutral).sum())
        let total = xyz.sum()
        guard total > 0, xyz.y > 0 else { return nil }
        return Self.temperatureAndTint(x: xyz.x / total, y: xyz.y / total)
    }

    /// Robertson's isotemperature lines: reciprocal temperature (mired), u and v of the line's point on the
    /// Planckian locus (CIE 1960), and the line's slope (Wyszecki & Stiles, table 1(3.11)).
    static let isotemperatureLines: [(mired: Double, u: Double, v: Double, slope: Double)] = [
        (0, 0.18006, 0.26352, -0.24341), (10, 0.18066, 0.26589, -0.25479), (20, 0.18133, 0.26846, -0.26876),
        (30, 0.18208, 0.27119, -0.28539), (40, 0.18293, 0.27407, -0.30470), (50, 0.18388, 0.27709, -0.32675),
        (60, 0.18494, 0.28021, -0.35156), (70, 0.18611, 0.28342, -0.37915), (80, 0.18740, 0.28668, -0.40955),
        (90, 0.18880, 0.28997, -0.44278), (100, 0.19032, 0.29326, -0.47888), (125, 0.19462, 0.30141, -0.58204),
        (150, 0.19962, 0.30921, -0.70471), (175, 0.20525, 0.31647, -0.84901), (200, 0.21142, 0.32312, -1.0182),
        (225, 0.21807, 0.32909, -1.2168), (250, 0.22511, 0.33439, -1.4512), (275, 0.23247, 0.33904, -1.7298),
        (300, 0.24010, 0.34308, -2.0637), (325, 0.24792, 0.34655, -2.4681), (350, 0.25591, 0.34951, -2.9641),
        (375, 0.26400, 0.35200, -3.5814), (400, 0.27218, 0.35407, -4.3633), (425, 0.28039, 0.35577, -5.3762),
        (450, 0.28863, 0.35714, -6.7262), (475, 0.29685, 0.35823, -8.5955), (500, 0.30505, 0.35907, -11.324),
        (525, 0.31320, 0.35968, -15.628), (550, 0.32129, 0.36011, -23.325), (575, 0.32931, 0.36038, -40.770),
        (600, 0.33724, 0.36051, -116.45),
    ]

    /// How far one unit of tint moves along an isotemperature line, in CIE 1960 units.
    static let tintScale = -3000.0

    /// The CIE 1931 chromaticity of a temperature (kelvin, 1 667…∞) and a tint.
    static func chromaticity(temperature: Double, tint: Double) -> SIMD2<Double> {
        let lines = isotemperatureLines
        let mired = 1e6 / max(temperature, 1)
        let offset = tint / tintScale
        var index = 0
        while index < lines.count - 2, mired >= lines[index + 1].mired { index += 1 }
        let a = lines[index]
        let b = lines[index + 1]
        let f = (b.mired - mired) / (b.mired - a.mired)
        var u = a.u * f + b.u * (1 - f)
        var v = a.v * f + b.v * (1 - f)
        let da = SIMD2(1, a.slope) / (1 + a.slope * a.slope).squareRoot()
        let db = SIMD2(1, b.slope) / (1 + b.slope * b.slope).squareRoot()
        var d = da * f + db * (1 - f)
        d /= (d * d).sum().squareRoot()
        u += d.x * offset
        v += d.y * offset
        let denominator = u - 4 * v + 2
        return SIMD2(1.5 * u / denominator, v / denominator)
    }

    /// The temperature and tint of a CIE 1931 chromaticity (the inverse of ``chromaticity(temperature:tint:)``).
    static func temperatureAndTint(x: Double, y: Double) -> (temperature: Double, tint: Double) {
        let lines = isotemperatureLines
        let denominator = 1.5 - x + 6 * y
        let u = 2 * x / denominator
        let v = 3 * y / denominator
        var last = (dt: 0.0, d: SIMD2<Double>(0, 0))
        for index in 1..<lines.count {
            var d = SIMD2(1, lines[index].slope)
            d /= (d * d).sum().squareRoot()
            let uu = u - lines[index].u
            let vv = v - lines[index].v
            var dt = -uu * d.y + vv * d.x
            if dt <= 0 || index == lines.count - 1 {
                if dt > 0 { dt = 0 }
                dt = -dt
                let f = index == 1 ? 0 : dt / (last.dt + dt)
                let temperature = 1e6 / (lines[index - 1].mired * f + lines[index].mired * (1 - f))
                let pu = u - (lines[index - 1].u * f + lines[index].u * (1 - f))
                let pv = v - (lines[index - 1].v * f + lines[index].v * (1 - f))
                var direction = d * (1 - f) + last.d * f
                direction /= (direction * direction).sum().squareRoot()
                return (temperature, (pu * direction.x + pv * direction.y) * tintScale)
            }
            last = (dt, d)
        }
        return (6500, 0)
    }

    /// The inverse of a 3 × 3 matrix given by rows, or nil when it is singular.
    static func inverse(_ m: [SIMD3<Double>]) -> [SIMD3<Double>]? {
        let (a, b, c) = (m[0], m[1], m[2])
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * r0.x + a.y * r1.x + a.z * r2.x
        guard abs(determinant) > 1e-12, determinant.isFinite else { return nil }
        return [r0 / determinant, r1 / determinant, r2 / determinant]
    }
}
