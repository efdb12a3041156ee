import Foundation

/// Auto: Adjust positions chosen from a photo's histogram, as Core Image's `autoAdjustmentFilters` chooses a
/// tone curve, vibrance and highlight/shadow amounts. The result is ordinary ``AdjustmentValues`` the user can
/// then move.
///
/// The analysis reads a proxy of at most 256 pixels a side, as sRGB-encoded luma (Rec. 709 weights) in 256 bins:
/// - **Exposure** brings the median towards 0.45 (a mid-grey), by 70 % of the stops needed, at most ±1.5 EV;
///   under 0.15 EV it is left alone.
/// - The rest is judged on the histogram as exposure leaves it:
///   - **Shadows** lift when more than 10 % of the photo is below 0.1: `2 · (share − 0.1)`, at most 0.6;
///   - **Black Point** rises when the darkest 0.5 % is above 0.08 (a washed-out photo):
///     `(p0.5 − 0.08) / 0.12`, at most 0.7.
/// - **Highlights** come down when more than 3 % of the photo as it was is above 0.95 (clipped or nearly):
///   `−4 · (share − 0.03)`, at least −0.6.
/// - **Vibrance** rises when the mean chroma (max − min of the encoded colour) is under 0.1: `2 · (0.1 − c)`,
///   at most 0.3.
///
/// A well-exposed photo with some true black and some colour gets nothing, or next to nothing.
public enum AutoAdjustment {
    /// The proxy's longest side.
    public static let proxySize = 256

    /// Auto's positions for `image` (usually the photo with its geometry and RAW development, before any
    /// adjustment), analysing a proxy of ``proxySize`` pixels.
    public static func values(for image: Image, context: RenderContext) async throws -> AdjustmentValues {
        let proxy = image.thumbnail(size: IntSize(width: proxySize, height: proxySize))
        return analyze(try await context.renderBitmap(proxy, layout: .rgb))
    }

    /// Auto's positions for an sRGB-encoded bitmap.
    public static func analyze(_ bitmap: Bitmap) -> AdjustmentValues {
        let histogram = Histogram(bitmap)
        var values = AdjustmentValues()
        guard histogram.count > 0 else { return values }

        let median = histogram.percentile(0.5)
        let target = 0.45
        var ev = 0.0
        if median > 0 {
            ev = 0.7 * log2(Double(SRGB.toLinear(Float(target))) / Double(SRGB.toLinear(Float(max(median, 0.02)))))
            ev = min(max(ev, -1.5), 1.5)
            if abs(ev) < 0.15 { ev = 0 }
        } else {
            ev = 1.5
        }
        values["exposure"] = ev / 2
        let after = histogram.exposed(by: ev)

        let deep = after.share(below: 0.1)
        if deep > 0.1 { values["shadows"] = min(0.6, 2 * (deep - 0.1)) }
        let black = after.percentile(0.005)
        if black > 0.08 { values["blackPoint"] = min(0.7, (black - 0.08) / 0.12) }
        let bright = histogram.share(above: 0.95)
        if bright > 0.03 { values["highlights"] = -min(0.6, 4 * (bright - 0.03)) }
        if histogram.meanChroma < 0.1 { values["vibrance"] = min(0.3, 2 * (0.1 - histogram.meanChroma)) }
        return values
    }

    /// Luma in 256 bins, and the mean chroma.
    struct Histogram {
        var bins = [Double](repeating: 0, count: 256)
        var count = 0.0
        var meanChroma = 0.0

        init(bins: [Double], count: Double, meanChroma: Double) {
            self.bins = bins
            self.count = count
            self.meanChroma = meanChroma
        }

        init(_ bitmap: Bitmap) {
            let channels = bitmap.layout.channels
            let colour = bitmap.layout.hasColor
            var chroma = 0.0
            bitmap.bytes.withUnsafeBufferPointer { bytes in
                var i = 0
                while i + channels <= bytes.count {
                    let r = Double(bytes[i]), g = colour ? Double(bytes[i + 1]) : r, b = colour ? Double(bytes[i + 2]) : r
                    let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    bins[min(255, Int(luma.rounded()))] += 1
                    chroma += (max(r, max(g, b)) - min(r, min(g, b))) / 255
                    i += channels
                }
            }
            count = bins.reduce(0, +)
            meanChroma = count > 0 ? chroma / count : 0
        }

        /// The encoded value (0…1) below which `fraction` of the pixels are.
        func percentile(_ fraction: Double) -> Double {
            let wanted = fraction * count
            var seen = 0.0
            for (index, n) in bins.enumerated() {
                seen += n
                if seen >= wanted && n > 0 { return Double(index) / 255 }
            }
            return 1
        }

        func share(below value: Double) -> Double {
            let limit = Int((value * 255).rounded(.up))
            return bins[..<min(256, limit)].reduce(0, +) / max(count, 1)
        }

        func share(above value: Double) -> Double {
            let limit = Int((value * 255).rounded(.down))
            return bins[min(255, limit + 1)...].reduce(0, +) / max(count, 1)
        }

        /// The histogram after `ev` stops in linear light (clipped at white).
        func exposed(by ev: Double) -> Histogram {
            guard ev != 0 else { return self }
            let gain = pow(2, ev)
            var moved = [Double](repeating: 0, count: 256)
            for (index, n) in bins.enumerated() where n > 0 {
                let encoded = Double(SRGB.fromLinear(min(1, SRGB.toLinear(Float(index) / 255) * Float(gain))))
                moved[min(255, Int((encoded * 255).rounded()))] += n
            }
            return Histogram(bins: moved, count: count, meanChroma: meanChroma)
        }
    }
}
