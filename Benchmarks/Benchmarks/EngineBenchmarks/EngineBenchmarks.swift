import Benchmark
import Foundation
import SepiaCodecs
import SepiaImage

/// The photo the benchmarks use: spices-24mp.jpg from $SEPIA_BENCH_PHOTOS, else the 10 MP corpus photo (3648x2736).
let photoPath: String = {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    if let folder = ProcessInfo.processInfo.environment["SEPIA_BENCH_PHOTOS"] {
        return URL(fileURLWithPath: folder).appendingPathComponent("spices-24mp.jpg").path
    }
    return root.appendingPathComponent(".build/testdata/photos/fujifilm-w3.jpg").path
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
        warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)

    let bytes: EncodedBytes
    do {
        bytes = try EncodedBytes.read(contentsOf: photoPath, maximumBytes: 1 << 30)
    } catch {
        fatalError("cannot read the benchmark photo \(photoPath): \(error)")
    }
    let all = RenderContext()
    let one = RenderContext(options: RenderOptions(threadCount: 1))

    func source() -> any EncodedImage {
        do { return try ImageDecoding.open(bytes) } catch { fatalError("\(error)") }
    }

    Benchmark("Codec.JPEGHeader") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(source().displaySize) }
    }

    for (name, context) in [("1thread", one), ("allthreads", all)] {
        Benchmark("Codec.JPEGDecode.full.\(name)") { _ in
            blackHole(try context.renderBitmapSynchronously(Image(source: source())))
        }
        Benchmark("Render.Thumbnail.256.\(name)") { _ in
            let image = source().image.thumbnail(size: IntSize(width: 256, height: 256))
            blackHole(try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context))
        }
        Benchmark("Render.Resize.1024.\(name)") { _ in
            let image = source().image.thumbnail(size: IntSize(width: 1024, height: 1024))
            blackHole(try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context))
        }
        Benchmark("Render.SepiaTone.full.\(name)") { _ in
            let image = source().image.applying(SepiaTone())
            blackHole(try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context))
        }
        // Three colour filters fuse into one pass: this should cost about what SepiaTone.full does.
        Benchmark("Render.ColorChain3.full.\(name)") { _ in
            let image = source().image.applying(SepiaTone(intensity: 0.8)).applying(ExposureAdjust(ev: 0.3))
                .applying(ColorControls(saturation: 1.2, brightness: 0, contrast: 1.1))
            blackHole(try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context))
        }
        Benchmark("Render.GaussianBlur10.full.\(name)") { _ in
            let image = source().image.applying(GaussianBlur(radius: 10))
            blackHole(try ImageEncoding.encodeSynchronously(image, as: .jpeg, context: context))
        }
        Benchmark("Render.FilterStrip.150.\(name)") { _ in
            let items = try FilterCatalog.bundled()
            let strip = try await FilterStrip.render(source().image, items: items, size: IntSize(width: 150, height: 150), context: context)
            for thumbnail in strip { blackHole(try ImageEncoding.encode(thumbnail.bitmap, as: .jpeg)) }
        }
    }
}
