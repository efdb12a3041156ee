import Foundation
import SepiaCodecs
import SepiaImage
import SepiaTestSupport
import SepiaVideo
import Testing

/// HDR posters are tone-mapped to SDR sRGB; the reference is FFmpeg's own chain, an independent implementation
/// of the same operator: zimg (`zscale`) for the transfer functions and the BT.2020 → BT.709 conversion in
/// linear light, `tonemap=hable` (on the largest of R, G and B, no desaturation) at the same peak, zimg again
/// for the sRGB curve.
///
/// Tolerance: with full chroma (4:4:4) the two pipelines differ only where they round (zimg converts YUV to
/// RGB in float; SepiaVideo converts with swscale to 16-bit RGB and looks the transfer functions up per 16-bit
/// code): a mean under 0.5 level of 255, 99 % of samples within 2, and none beyond 10 (near black, where the
/// sRGB curve is steepest, 1e-4 of linear light is 3 levels). A wrong curve, peak, OOTF,
/// matrix or primaries conversion moves the mean by tens. With 4:2:0 chroma, as cameras record, zimg and swscale
/// also reconstruct chroma differently; where a colour is outside BT.709 and one of its components near zero,
/// the sRGB curve magnifies that tenfold, so only the mean (under 1) is held there.
@Suite("HDR tone mapping")
struct ToneMappingTests {
    /// FFmpeg's tone mapping of the frame at `time`, as packed 8-bit sRGB.
    static func reference(_ path: String, time: Double, peak: Double) throws -> [UInt8] {
        let chain = [
            // agamma=0: zimg's exact curves, and BT.2100's HLG OOTF on luminance (its approximation applies it per channel).
            "zscale=t=linear:npl=100:agamma=0", "format=gbrpf32le", "zscale=p=bt709:agamma=0", "tonemap=tonemap=hable:desat=0:peak=\(peak)",
            "zscale=t=iec61966-2-1:m=bt709:r=full:agamma=0", "format=gbrp",
        ].joined(separator: ",")
        let data = try TestVideos.run([
            "-hide_banner", "-loglevel", "error", "-nostdin", "-ss", String(format: "%.6f", max(0, time - 0.004)), "-i", path, "-frames:v", "1",
            "-vf", chain, "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        return [UInt8](data)
    }

    @Test("HLG (10-bit HEVC) is read as HDR and tone-mapped like zscale + tonemap=hable")
    func hlg() throws {
        // Given a 10-bit HEVC clip tagged BT.2020 HLG
        let video = try VideoSource(path: try Clips.hevcHLG())
        // Then the probe sees HDR
        let v = video.info.video
        #expect(v.dynamicRange == .hlg)
        #expect(v.bitDepth == 10)
        #expect(v.profile == "Main 10")
        #expect(v.primaries == "bt2020")
        #expect(v.transfer == "arib-std-b67")
        #expect(video.colorSpace == "BT.2020 HLG, tone-mapped to sRGB")
        // And the poster matches FFmpeg's tone mapping with a 1000 cd/m² display (peak 10 × 100 cd/m²)
        try Self.compare(video, peak: 10, label: "HLG 4:2:0", mean: 1, p99: nil, max: nil)
        try Self.compare(VideoSource(path: try Clips.hevcHLG(chroma: "444")), peak: 10, label: "HLG 4:4:4", mean: 0.5, p99: 2, max: 10)
    }

    @Test("PQ (10-bit HEVC, MaxCLL 1000) is tone-mapped from its content light level like zscale + tonemap=hable")
    func pq() throws {
        let video = try VideoSource(path: try Clips.hevcPQ())
        #expect(video.info.video.dynamicRange == .pq)
        #expect(video.info.video.bitDepth == 10)
        #expect(video.info.video.transfer == "smpte2084")
        try Self.compare(video, peak: 10, label: "PQ 4:2:0", mean: 1, p99: nil, max: nil)
        try Self.compare(VideoSource(path: try Clips.hevcPQ(chroma: "444")), peak: 10, label: "PQ 4:4:4", mean: 0.5, p99: 2, max: 10)
    }

    /// Compares the poster of `video` with FFmpeg's tone mapping from `peak` (× 100 cd/m²), and prints the error.
    static func compare(_ video: VideoSource, peak: Double, label: String, mean: Double, p99: Int?, max: Int?) throws {
        let frame = try video.frame()
        let path = try #require(video.file)
        let difference = PixelDifference(frame.bitmap.bytes, try reference(path, time: frame.time, peak: peak))
        print("\(label) poster against zscale + tonemap=hable: \(difference)")
        #expect(difference.mean <= mean, "\(label): \(difference)")
        if let p99 { #expect(difference.p99 <= p99, "\(label): \(difference)") }
        if let max { #expect(difference.max <= max, "\(label): \(difference)") }
    }

    @Test("the peak: PQ's MaxCLL wins over the assumed peak; HLG's display peak is the assumed one")
    func peak() throws {
        let path = try Clips.hevcPQ()
        let declared = try VideoSource(path: path).frame().bitmap.bytes
        let assumed = try VideoSource(path: path, options: VideoOptions(assumedPeakLuminance: 4000)).frame().bitmap.bytes
        #expect(declared == assumed)
        let hlg = try VideoSource(path: try Clips.hevcHLG()).frame().bitmap.bytes
        let brighterDisplay = try VideoSource(path: try Clips.hevcHLG(), options: VideoOptions(assumedPeakLuminance: 4000)).frame().bitmap.bytes
        #expect(hlg != brighterDisplay)
    }

    @Test("a render of an HDR video's thumbnail converts only the reduced frame")
    func thumbnail() async throws {
        let video = try VideoSource(path: try Clips.hevcHLG())
        let bitmap = try await RenderContext().renderBitmap(video.image.thumbnail(size: IntSize(width: 64, height: 64)), layout: .rgb)
        #expect(bitmap.size == IntSize(width: 64, height: 48))
        // The planner takes swscale's reduction: 320 / 2 leaves the resampler its 2×.
        #expect(video.reduction(scale: 2).size == IntSize(width: 160, height: 120))
    }
}
