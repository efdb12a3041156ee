import Foundation
import SepiaCodecs
import SepiaImage
import Testing

@testable import SepiaRAW

/// `CIRAWFilter`'s white balance by colour temperature and tint: the white points against the CIE's published
/// chromaticities, the inverse against the forward conversion, and developments that turn the way the names say.
@Suite struct RAWWhiteBalanceTests {
    let context = RenderContext()

    /// CIE illuminant A is a Planckian radiator at 2856 K: tint 0 gives its published chromaticity
    /// (CIE 15:2004, table T.3: x 0.44757, y 0.40745). 6504 K with tint 0 lies on the Planckian locus near D65.
    @Test func whitePointsMatchTheCIE() {
        let a = RAWCameraColor.chromaticity(temperature: 2856, tint: 0)
        #expect(abs(a.x - 0.44757) < 0.0005 && abs(a.y - 0.40745) < 0.0005, "\(a)")
        // D65 (x 0.31271, y 0.32902) is a little above the Planckian locus: about 6500 K, a small green tint.
        let d65 = RAWCameraColor.temperatureAndTint(x: 0.31271, y: 0.32902)
        #expect(abs(d65.temperature - 6504) < 30, "\(d65)")
        #expect(abs(d65.tint) < 15, "\(d65)")
        // D50 (x 0.34567, y 0.35850): about 5000 K.
        let d50 = RAWCameraColor.temperatureAndTint(x: 0.34567, y: 0.35850)
        #expect(abs(d50.temperature - 5003) < 30, "\(d50)")
    }

    /// Temperature and tint → chromaticity → temperature and tint comes back, across the range the editor offers.
    @Test func conversionRoundTrips() {
        for temperature in stride(from: 2000.0, through: 20000, by: 750) {
            for tint in stride(from: -150.0, through: 150, by: 50) {
                let xy = RAWCameraColor.chromaticity(temperature: temperature, tint: tint)
                let back = RAWCameraColor.temperatureAndTint(x: xy.x, y: xy.y)
                #expect(abs(back.temperature - temperature) / temperature < 0.002, "\(temperature) K \(tint): \(back)")
                #expect(abs(back.tint - tint) < 0.5, "\(temperature) K \(tint): \(back)")
            }
        }
    }

    /// Through a real camera matrix (the test DNG's), multipliers ↔ temperature and tint invert each other, and the
    /// camera's as-shot neutral is reported.
    @Test func multipliersRoundTripThroughTheCameraMatrix() throws {
        let raw = try RAWSource(path: RAWTIFFFixtures.entry("raw/rggb_12bit.dng").path)
        let color = raw.cameraColor
        let asShot = try #require(raw.asShotNeutral)
        #expect(RAWDevelopment.temperatureRange.contains(asShot.temperature), "\(asShot)")
        // The file's AsShotNeutral is 0.5 1 0.7: multipliers 2, 1, 1.43.
        let multipliers = color.multipliers(temperature: asShot.temperature, tint: asShot.tint)
        #expect(abs(multipliers.x - 2) < 0.01 && abs(multipliers.z - 1 / 0.7) < 0.01, "\(multipliers)")
        for (temperature, tint) in [(3000.0, 0.0), (5000, 20), (7500, -30), (12000, 60)] {
            let m = color.multipliers(temperature: temperature, tint: tint)
            let back = try #require(color.temperatureAndTint(multipliers: m))
            #expect(abs(back.temperature - temperature) / temperature < 0.003 && abs(back.tint - tint) < 1, "\(temperature) \(tint): \(back)")
        }
    }

    /// A higher temperature makes the photo warmer (more red than blue); a positive tint more magenta (less
    /// green), as in Camera Raw and Photos. The as-shot temperature and tint develop as the camera's own balance.
    @Test func developmentsTurnTheWayTheNamesSay() async throws {
        let path = RAWTIFFFixtures.entry("raw/rggb_12bit.dng").path
        func mean(_ white: RAWDevelopment.WhiteBalance) async throws -> SIMD3<Double> {
            let raw = try RAWSource(path: path, development: RAWDevelopment(boost: 0, whiteBalance: white))
            let bitmap = try await context.renderBitmap(raw.image.thumbnail(size: IntSize(width: 200, height: 200)), layout: .rgb)
            var sum = SIMD3<Double>(0, 0, 0)
            for i in stride(from: 0, to: bitmap.bytes.count, by: 3) {
                sum += SIMD3(Double(bitmap.bytes[i]), Double(bitmap.bytes[i + 1]), Double(bitmap.bytes[i + 2]))
            }
            return sum / Double(bitmap.bytes.count / 3)
        }
        let cool = try await mean(.neutral(temperature: 3000, tint: 0))
        let warm = try await mean(.neutral(temperature: 9000, tint: 0))
        #expect(warm.x / warm.z > cool.x / cool.z * 1.2, "cool \(cool), warm \(warm)")
        let green = try await mean(.neutral(temperature: 5500, tint: -60))
        let magenta = try await mean(.neutral(temperature: 5500, tint: 60))
        #expect(magenta.y / (magenta.x + magenta.z) < green.y / (green.x + green.z) * 0.9, "green \(green), magenta \(magenta)")
        let raw = try RAWSource(path: path)
        let asShot = try #require(raw.asShotNeutral)
        let camera = try await mean(.asShot)
        let named = try await mean(.neutral(temperature: asShot.temperature, tint: asShot.tint))
        #expect(abs(camera.x - named.x) < 2 && abs(camera.y - named.y) < 2 && abs(camera.z - named.z) < 2, "\(camera) vs \(named)")
    }

    /// A recipe's `CIRAWFilter` step becomes the development: left-out white balance stays as shot, a temperature
    /// alone keeps the as-shot tint, and the step on a file that is not RAW is refused with the reason.
    @Test func recipeStepBecomesTheDevelopment() throws {
        let path = RAWTIFFFixtures.entry("raw/rggb_12bit.dng").path
        let raw = try RAWSource(path: path)
        let asShot = try #require(raw.asShotNeutral)
        let exposureOnly = try RAWDevelopmentStep(parameters: ["inputEV": .number(0.5), "inputLuminanceNoiseReductionAmount": .number(0.2)])
        let a = RAWDevelopment(exposureOnly, asShot: asShot)
        #expect(a.exposure == 0.5 && a.noiseReduction == 0.2 && a.whiteBalance == .asShot)
        let temperatureOnly = try RAWDevelopmentStep(parameters: ["inputNeutralTemperature": .number(4000)])
        #expect(RAWDevelopment(temperatureOnly, asShot: asShot).whiteBalance == .neutral(temperature: 4000, tint: asShot.tint))
        let recipe = EditRecipe(steps: [temperatureOnly.step, EditRecipe.Step(filter: "CIPhotoEffectMono")])
        let developed = try #require(try PhotoDecoding.base(of: raw, for: recipe) as? RAWSource)
        #expect(developed.development.whiteBalance == .neutral(temperature: 4000, tint: asShot.tint))
        let jpeg = try PhotoDecoding.open(path: RAWTIFFFixtures.entry("hostile/jpeg_named.nef").path)
        #expect {
            _ = try PhotoDecoding.base(of: jpeg, for: recipe)
        } throws: { error in
            "\(error)".contains("CIRAWFilter") && "\(error)".contains("JPEG")
        }
        // Draft mode: the half-size development stands in whenever it is at least the size asked.
        let draft = try #require(try PhotoDecoding.base(of: raw, for: EditRecipe(steps: []), draft: true) as? RAWSource)
        #expect(draft.options.allowsDraftMode)
        #expect(draft.reduction(scale: 2).minimumResize == 1)
        #expect(raw.reduction(scale: 2).minimumResize == 2)
    }
}
