import Benchmark
import Foundation
import SepiaCodecs
import SepiaImage

/// The photo the benchmarks use: spices-24mp.jpg from $SEPIA_BENCH_PHOTOS, else the 22 MP corpus photo.
let photoPath: String = {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    if let folder = ProcessInfo.processInfo.environment["SEPIA_BENCH_PHOTOS"] {
        return URL(fileURLWithPath: folder).appendingPathComponent("spices-24mp.jpg").path
    }
    return root.appendingPathComponent("Tests/Fixtures/testdata/photos/Canon_EOS_5D_Mark_III_22MP.jpg").path
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
    }
}
