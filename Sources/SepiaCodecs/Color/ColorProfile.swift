internal import CLCMS2
import Foundation
import SepiaImage

/// An embedded ICC profile, interpreted with Little CMS.
///
/// Sepia converts every image into sRGB's primaries as it decodes (so thumbnails, previews and exports look the
/// same in every viewer) and writes outputs without a profile. Matrix/TRC profiles (Display P3, Adobe RGB,
/// Rec. 2020, camera sRGB variants) become a ``SourceColor``: three transfer curves and a primaries matrix,
/// derived from Little CMS's own transform and verified against it. Other RGB profiles, gray profiles and
/// CMYK profiles are applied by Little CMS row by row.
struct ColorProfile {
    /// The colour model the profile describes.
    enum Model {
        case rgb, gray, cmyk, other
    }

    let bytes: [UInt8]
    let model: Model
    let name: String

    /// Parses a profile; nil when Little CMS cannot read it.
    init?(bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        ColorProfile.silenceLittleCMS
        let parsed: (Model, String)? = bytes.withUnsafeBytes { raw in
            guard let handle = cmsOpenProfileFromMem(raw.baseAddress, cmsUInt32Number(raw.count)) else { return nil }
            defer { cmsCloseProfile(handle) }
            let space = cmsGetColorSpace(handle)
            let model: Model
            switch space {
            case cmsSigRgbData: model = .rgb
            case cmsSigGrayData: model = .gray
            case cmsSigCmykData: model = .cmyk
            default: model = .other
            }
            var buffer = [CChar](repeating: 0, count: 256)
            let n = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
            let name = n > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            return (model, name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard let parsed else { return nil }
        self.bytes = bytes
        self.model = parsed.0
        self.name = parsed.1.isEmpty ? "unnamed ICC profile" : parsed.1
    }

    private static let silenceLittleCMS: Void = {
        cmsSetLogErrorHandler(nil)
    }()

    /// The profile as curves and a matrix into linear sRGB, when it is a matrix/TRC RGB or gray profile.
    /// Returns ``SourceColor/sRGB`` when the profile is sRGB in all but name.
    func sourceColor() -> SourceColor? {
        switch model {
        case .rgb: return rgbSourceColor()
        case .gray: return graySourceColor()
        default: return nil
        }
    }

    // MARK: - Matrix/TRC decomposition

    private func rgbSourceColor() -> SourceColor? {
        withTransform(input: clcms_type_rgb_flt(), output: clcms_type_rgb_flt()) { transform -> SourceColor? in
            func convert(_ v: SIMD3<Float>) -> SIMD3<Float> {
                var input = [v.x, v.y, v.z]
                var output: [Float] = [0, 0, 0]
                cmsDoTransform(transform, &input, &output, 1)
                return SIMD3(output[0], output[1], output[2])
            }
            let black = convert(.zero)
            guard maxMagnitude(black) < 1e-3 else { return nil }
            let columns = [convert([1, 0, 0]), convert([0, 1, 0]), convert([0, 0, 1])]
            var curves: [[Float]] = []
            for c in 0..<3 {
                let column = columns[c]
                let norm = (column * column).sum()
                guard norm > 1e-6 else { return nil }
                var curve = [Float](repeating: 0, count: 256)
                for i in 0..<256 {
                    var v = SIMD3<Float>.zero
                    v[c] = Float(i) / 255
                    curve[i] = (convert(v) * column).sum() / norm
                }
                curves.append(curve)
            }
            let matrix = Matrix3(
                [columns[0].x, columns[1].x, columns[2].x],
                [columns[0].y, columns[1].y, columns[2].y],
                [columns[0].z, columns[1].z, columns[2].z])
            // Verify the decomposition against the full transform on a fixed set of colours.
            var state: UInt32 = 0x9E37_79B9
            for _ in 0..<64 {
                var codes = SIMD3<Int>.zero
                for k in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    codes[k] = Int(state >> 24)
                }
                let exact = convert(SIMD3(Float(codes.x), Float(codes.y), Float(codes.z)) / 255)
                let approx = matrix.apply(SIMD3(curves[0][codes.x], curves[1][codes.y], curves[2][codes.z]))
                if maxMagnitude(exact - approx) > 2e-3 { return nil }
            }
            let color = SourceColor(name: name, curves: curves, matrix: matrix)
            return Self.isEffectivelySRGB(color) ? SourceColor(name: name, curves: SourceColor.sRGB.curves, matrix: nil) : color
        } ?? nil
    }

    private func graySourceColor() -> SourceColor? {
        withTransform(input: clcms_type_gray_flt(), output: clcms_type_rgb_flt()) { transform -> SourceColor? in
            var curve = [Float](repeating: 0, count: 256)
            for i in 0..<256 {
                var input: [Float] = [Float(i) / 255]
                var output: [Float] = [0, 0, 0]
                cmsDoTransform(transform, &input, &output, 1)
                curve[i] = output[1]
            }
            return SourceColor(name: name, curves: [curve, curve, curve], matrix: nil)
        } ?? nil
    }

    private static func isEffectivelySRGB(_ color: SourceColor) -> Bool {
        if let m = color.matrix, !m.isIdentity(tolerance: 2e-3) { return false }
        let srgb = SRGB.decodeTable8
        for c in 0..<3 {
            for i in 0..<256 where abs(color.curves[c][i] - srgb[i]) > 1.5e-3 { return false }
        }
        return true
    }

    /// Runs `body` with a float transform from this profile to linear sRGB.
    private func withTransform<T>(input: cmsUInt32Number, output: cmsUInt32Number, _ body: (cmsHTRANSFORM) -> T) -> T? {
        bytes.withUnsafeBytes { raw -> T? in
            guard let source = cmsOpenProfileFromMem(raw.baseAddress, cmsUInt32Number(raw.count)) else { return nil }
            defer { cmsCloseProfile(source) }
            guard let target = Self.makeLinearSRGBProfile() else { return nil }
            defer { cmsCloseProfile(target) }
            guard
                let transform = cmsCreateTransform(
                    source, input, target, output, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                    cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE))
            else { return nil }
            defer { cmsDeleteTransform(transform) }
            return body(transform)
        }
    }

    /// sRGB primaries and D65 white with a linear tone curve: Sepia's working space.
    private static func makeLinearSRGBProfile() -> cmsHPROFILE? {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
            Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        guard let linear = cmsBuildGamma(nil, 1.0) else { return nil }
        defer { cmsFreeToneCurve(linear) }
        var curves: [OpaquePointer?] = [linear, linear, linear]
        return cmsCreateRGBProfile(&white, &primaries, &curves)
    }

    // MARK: - Row transforms (non-matrix profiles, CMYK)

    /// A Little CMS transform from 8-bit samples in this profile to 8-bit sRGB, for profiles that are not
    /// matrix/TRC. `reversedCMYK` reads Adobe's inverted CMYK.
    func makeRowTransform(reversedCMYK: Bool = false) -> RowColorTransform? {
        let inputFormat: cmsUInt32Number
        switch model {
        case .rgb: inputFormat = clcms_type_rgb_8()
        case .gray: inputFormat = clcms_type_gray_8()
        case .cmyk: inputFormat = reversedCMYK ? clcms_type_cmyk_8_rev() : clcms_type_cmyk_8()
        case .other: return nil
        }
        return RowColorTransform(profile: bytes, inputFormat: inputFormat, inputChannels: model == .cmyk ? 4 : model == .gray ? 1 : 3)
    }
}

/// A Little CMS transform converting rows of 8-bit samples to 8-bit sRGB.
///
/// Sendable: Little CMS transforms created with `cmsFLAGS_NOCACHE` may be used from several threads.
final class RowColorTransform: @unchecked Sendable {
    private let transform: cmsHTRANSFORM
    let inputChannels: Int

    init?(profile: [UInt8], inputFormat: cmsUInt32Number, inputChannels: Int) {
        let made: cmsHTRANSFORM? = profile.withUnsafeBytes { raw in
            guard let source = cmsOpenProfileFromMem(raw.baseAddress, cmsUInt32Number(raw.count)) else { return nil }
            defer { cmsCloseProfile(source) }
            guard let srgb = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(srgb) }
            return cmsCreateTransform(
                source, inputFormat, srgb, clcms_type_rgb_8(), cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(cmsFLAGS_NOCACHE))
        }
        guard let made else { return nil }
        transform = made
        self.inputChannels = inputChannels
    }

    deinit {
        cmsDeleteTransform(transform)
    }

    /// Converts `count` pixels from `src` to RGB at `dst`.
    func convert(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer, count: Int) {
        cmsDoTransform(transform, src, dst, cmsUInt32Number(count))
    }
}

/// The largest absolute component.
func maxMagnitude(_ v: SIMD3<Float>) -> Float {
    max(Swift.abs(v.x), max(Swift.abs(v.y), Swift.abs(v.z)))
}
