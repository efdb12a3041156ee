extension Adjustment {
    private static func n(_ value: Double) -> FilterValue { .number(value) }
    private static func v(_ values: Double...) -> FilterValue { .vector(values) }
    private static func map(_ filter: String, _ parameters: [String: Endpoints]) -> Mapping {
        Mapping(filter: filter, parameters: parameters)
    }
    /// A tone-curve mapping moving the given points (index → the point at the slider's end); the other points
    /// keep their defaults, `(i/4, i/4)`.
    private static func curve(_ moved: [Int: [Double]]) -> Mapping {
        var parameters: [String: Endpoints] = [:]
        for (index, end) in moved {
            let rest = Double(index) / 4
            parameters["inputPoint\(index)"] = Endpoints(.vector([rest, rest]), .vector(end))
        }
        return Mapping(filter: "CIToneCurve", parameters: parameters)
    }

    /// The Adjust panel, in Photos' order, which is also the order the steps apply in.
    ///
    /// | slider | filter | at −1 | at +1 |
    /// |---|---|---|---|
    /// | Exposure | `CIExposureAdjust` | −2 EV | +2 EV |
    /// | Brilliance | `CIHighlightShadowAdjust`, radius 20 px | shadows −0.4 | shadows +0.6, highlights 0.7 |
    /// | Highlights | `CIHighlightShadowAdjust` / `CIToneCurve` | highlights 0.3 | point 3 (0.75, 0.86) |
    /// | Shadows | `CIHighlightShadowAdjust` | shadows −1 | shadows +1 |
    /// | Brightness | `CIToneCurve` | points 1–3 down | points 1–3 up |
    /// | Contrast | `CIColorControls` | contrast 0.6 | contrast 1.5 |
    /// | Black Point | `CIToneCurve` | point 0 (0, 0.1) | point 0 (0.12, 0) |
    /// | Saturation | `CIColorControls` | saturation 0 | saturation 2 |
    /// | Vibrance | `CIVibrance` | −1 | +1 |
    /// | Warmth | `CITemperatureAndTint` | neutral 4600 K | neutral 11000 K (about ∓60 mired) |
    /// | Tint | `CITemperatureAndTint` | target tint +60 (greener) | target tint −60 (magenta) |
    /// | B&W Intensity | `CIColorMonochrome`, grey | — | intensity 1 |
    /// | Neutrals | `CIToneCurve` | point 2 (0.5, 0.4) | point 2 (0.5, 0.6) |
    /// | Tone | `CIToneCurve` | points 1, 3 flatter | points 1, 3 steeper |
    /// | Grain | `SepiaFilmGrain` (Sepia's own), size 1.5 px | — | amount 1 |
    /// | Sharpness | `CISharpenLuminance` | — | sharpness 1 |
    /// | Definition | `CISharpenLuminance`, radius 20 px (local contrast of the luminance) | — | sharpness 0.5 |
    /// | Noise Reduction | `CINoiseReduction` | — | noise level 0.05, sharpness 0.3 |
    /// | Vignette | `CIVignette`, radius 1.2 | intensity −0.2 (lighter corners) | intensity 0.7 |
    public static let panel: [Adjustment] = [
        // Light
        Adjustment(
            "exposure", "Exposure", .light,
            positive: map("CIExposureAdjust", ["inputEV": Endpoints(n(0), n(2))]),
            negative: map("CIExposureAdjust", ["inputEV": Endpoints(n(0), n(-2))])),
        Adjustment(
            "brilliance", "Brilliance", .light,
            positive: map(
                "CIHighlightShadowAdjust",
                [
                    "inputRadius": Endpoints(n(20), n(20)), "inputShadowAmount": Endpoints(n(0), n(0.6)),
                    "inputHighlightAmount": Endpoints(n(1), n(0.7)),
                ]),
            negative: map(
                "CIHighlightShadowAdjust",
                [
                    "inputRadius": Endpoints(n(20), n(20)), "inputShadowAmount": Endpoints(n(0), n(-0.4)),
                    "inputHighlightAmount": Endpoints(n(1), n(1)),
                ])),
        Adjustment(
            "highlights", "Highlights", .light,
            positive: curve([3: [0.75, 0.86]]),
            negative: map("CIHighlightShadowAdjust", ["inputHighlightAmount": Endpoints(n(1), n(0.3))])),
        Adjustment(
            "shadows", "Shadows", .light,
            positive: map("CIHighlightShadowAdjust", ["inputShadowAmount": Endpoints(n(0), n(1))]),
            negative: map("CIHighlightShadowAdjust", ["inputShadowAmount": Endpoints(n(0), n(-1))])),
        Adjustment(
            "brightness", "Brightness", .light,
            positive: curve([1: [0.25, 0.34], 2: [0.5, 0.61], 3: [0.75, 0.83]]),
            negative: curve([1: [0.25, 0.17], 2: [0.5, 0.39], 3: [0.75, 0.66]])),
        Adjustment(
            "contrast", "Contrast", .light,
            positive: map("CIColorControls", ["inputContrast": Endpoints(n(1), n(1.5))]),
            negative: map("CIColorControls", ["inputContrast": Endpoints(n(1), n(0.6))])),
        Adjustment(
            "blackPoint", "Black Point", .light,
            positive: curve([0: [0.12, 0]]),
            negative: curve([0: [0, 0.1]])),
        // Color
        Adjustment(
            "saturation", "Saturation", .color,
            positive: map("CIColorControls", ["inputSaturation": Endpoints(n(1), n(2))]),
            negative: map("CIColorControls", ["inputSaturation": Endpoints(n(1), n(0))])),
        Adjustment(
            "vibrance", "Vibrance", .color,
            positive: map("CIVibrance", ["inputAmount": Endpoints(n(0), n(1))]),
            negative: map("CIVibrance", ["inputAmount": Endpoints(n(0), n(-1))])),
        Adjustment(
            "warmth", "Warmth", .color,
            positive: map("CITemperatureAndTint", ["inputNeutral": Endpoints(v(6500, 0), v(11000, 0))]),
            negative: map("CITemperatureAndTint", ["inputNeutral": Endpoints(v(6500, 0), v(4600, 0))])),
        Adjustment(
            "tint", "Tint", .color,
            positive: map("CITemperatureAndTint", ["inputTargetNeutral": Endpoints(v(6500, 0), v(6500, -60))]),
            negative: map("CITemperatureAndTint", ["inputTargetNeutral": Endpoints(v(6500, 0), v(6500, 60))])),
        // Black & White
        Adjustment(
            "blackAndWhite", "Intensity", .blackAndWhite,
            map("CIColorMonochrome", ["inputColor": Endpoints(v(0.5, 0.5, 0.5, 1), v(0.5, 0.5, 0.5, 1)), "inputIntensity": Endpoints(n(0), n(1))])),
        Adjustment(
            "neutrals", "Neutrals", .blackAndWhite,
            positive: curve([2: [0.5, 0.6]]),
            negative: curve([2: [0.5, 0.4]])),
        Adjustment(
            "tone", "Tone", .blackAndWhite,
            positive: curve([1: [0.25, 0.18], 3: [0.75, 0.82]]),
            negative: curve([1: [0.25, 0.3], 3: [0.75, 0.7]])),
        Adjustment("grain", "Grain", .blackAndWhite, map("SepiaFilmGrain", ["inputAmount": Endpoints(n(0), n(1))])),
        // Detail
        Adjustment("sharpness", "Sharpness", .detail, map("CISharpenLuminance", ["inputSharpness": Endpoints(n(0), n(1))])),
        Adjustment(
            "definition", "Definition", .detail,
            map("CISharpenLuminance", ["inputRadius": Endpoints(n(20), n(20)), "inputSharpness": Endpoints(n(0), n(0.5))])),
        Adjustment(
            "noiseReduction", "Noise Reduction", .detail,
            map("CINoiseReduction", ["inputNoiseLevel": Endpoints(n(0), n(0.05)), "inputSharpness": Endpoints(n(0), n(0.3))])),
        Adjustment(
            "vignette", "Vignette", .detail,
            positive: map("CIVignette", ["inputIntensity": Endpoints(n(0), n(0.7)), "inputRadius": Endpoints(n(1.2), n(1.2))]),
            negative: map("CIVignette", ["inputIntensity": Endpoints(n(0), n(-0.2)), "inputRadius": Endpoints(n(1.2), n(1.2))])),
    ]

    /// The slider called `id`.
    public static func named(_ id: String) -> Adjustment? {
        panel.first { $0.id == id }
    }
}
