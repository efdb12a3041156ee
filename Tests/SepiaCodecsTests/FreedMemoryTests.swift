import Foundation
import SepiaCodecs
import Testing

@testable import SepiaImage

/// After a large decode, the process's resident memory comes back down: glibc would otherwise keep the decode's
/// freed buffers in its arenas (libheif's and libde265's planes, the render's chunks), and a long-running server
/// would stay near its peak while idle. The HEIC files are made here, by heif-enc.
@Suite("Memory freed by large decodes")
struct FreedMemoryTests {
    /// The process's resident memory, in bytes.
    static func residentBytes() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A `side`×`side` HEIC of a patterned image, coded by heif-enc.
    static func heic(side: Int) throws -> [UInt8] {
        // 16 patterned rows, repeated: made quickly, and decoded at the cost of any photo of that size.
        let rows = (0..<16).map { y in (0..<(side * 3)).map { UInt8(truncatingIfNeeded: $0 / 7 + y * 13 + ($0 % 3) * 80) } }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * side * 3)
        for y in 0..<side { pixels += rows[(y / 3) % 16] }
        return try HEIFEncoder.heic(Bitmap(width: side, height: side, layout: .rgb, bytes: pixels), quality: 50)
    }

    /// Whether the process runs under AddressSanitizer, whose allocator keeps freed memory in quarantine on
    /// purpose: there the resident memory says nothing about glibc's arenas (the unsanitized processes stage
    /// checks it), and the test only decodes.
    static let underAddressSanitizer: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__asan_init") != nil
    }()

    @Test("rendering a 4096x4096 HEIC whole leaves the resident memory near where it was before")
    func residentMemoryReturns() async throws {
        let side = 4096
        #expect(side * side >= FreedMemory.minimumSourcePixels)
        let small = try Self.heic(side: 256)
        let large = try Self.heic(side: side)
        let context = RenderContext(options: RenderOptions(threadCount: 2))
        // A small HEIC first, so that what the first use of libheif and of the context keeps is not counted.
        _ = try await context.renderBitmap(Image(source: try ImageDecoding.open(EncodedBytes(small))), layout: .rgb)
        FreedMemory.returnToSystem()
        let before = Self.residentBytes()
        // Three in a row: glibc raises its threshold for mapping blocks as mapped ones are freed, so from the
        // second decode on, its planes come from the arenas, where they stay when freed.
        for _ in 0..<3 {
            let bitmap = try await context.renderBitmap(Image(source: try ImageDecoding.open(EncodedBytes(large))), layout: .rgb)
            #expect(bitmap.width == side && bitmap.height == side)
        }
        if Self.underAddressSanitizer { return }
        let after = Self.residentBytes()
        let grown = after - before
        #expect(grown < 24 << 20, "the resident memory grew from \(before >> 20) MiB to \(after >> 20) MiB and stayed there")
    }
}
