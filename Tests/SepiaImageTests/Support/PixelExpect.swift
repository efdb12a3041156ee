import SepiaImage
import Testing

/// Compares two pixel buffers and reports the first pixel that differs by more than `tolerance`.
func expectPixels(
    _ actual: PixelBuffer, equal expected: PixelBuffer, tolerance: Float = 0, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.extent == expected.extent, "extents differ", sourceLocation: sourceLocation)
    guard actual.extent == expected.extent else { return }
    for i in 0..<actual.pixels.count {
        let a = actual.pixels[i], e = expected.pixels[i]
        let d = a - e
        let worst = max(abs(d[0]), max(abs(d[1]), max(abs(d[2]), abs(d[3]))))
        if !(worst <= tolerance) {
            let x = actual.extent.minX + i % actual.extent.width
            let y = actual.extent.minY + i / actual.extent.width
            Issue.record("pixel (\(x), \(y)) is \(a), expected \(e) (tolerance \(tolerance))", sourceLocation: sourceLocation)
            return
        }
    }
}

/// The largest absolute channel difference between two buffers of the same extent.
func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Float {
    var worst: Float = 0
    for i in 0..<a.pixels.count {
        let d = a.pixels[i] - b.pixels[i]
        worst = max(worst, max(abs(d[0]), max(abs(d[1]), max(abs(d[2]), abs(d[3])))))
    }
    return worst
}
