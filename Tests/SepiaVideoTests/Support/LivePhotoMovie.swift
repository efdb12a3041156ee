import Foundation
import SepiaTestSupport

/// Adds to a QuickTime movie the timed metadata track an iPhone writes into a Live Photo's movie: a `mebx`
/// track keyed `com.apple.quicktime.still-image-time` whose one sample is at the still image's time (an empty
/// edit before it). ffmpeg cannot write such a track, so the test builds its boxes.
enum LivePhotoMovie {
    static func addStillImageTrack(to path: String, output: String, at seconds: Double) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The top-level boxes: ffmpeg writes ftyp, (free,) mdat, then moov, last.
        var offset = 0
        var moov: (start: Int, size: Int)?
        var mdatPayload = 0
        while offset + 8 <= bytes.count {
            let size = Int(be32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "moov" { moov = (offset, size) }
            if type == "mdat" { mdatPayload = offset + 8 }
            guard size >= 8 else { break }
            offset += size
        }
        guard let moov, moov.start + moov.size == bytes.count else { throw Clips.Failure(description: "moov is not the last box of \(path)") }
        let movieScale = try movieTimescale(bytes, moov: moov)
        let mediaScale: UInt32 = 600
        let emptyEdit = UInt32((seconds * Double(movieScale)).rounded())

        let key = "com.apple.quicktime.still-image-time"
        let keyd = box("keyd", Array("mdta".utf8) + Array(key.utf8))
        // ISO/IEC 14496-12 §12.3.3: the key table holds one box per key, named by its local identifier.
        let keys = box("keys", box(u32raw(1), keyd))
        let mebx = box("mebx", [0, 0, 0, 0, 0, 0] + u16(1) + keys)
        let stsd = box("stsd", u32(0) + u32(1) + mebx)
        let stts = box("stts", u32(0) + u32(1) + u32(1) + u32(20))
        let stsc = box("stsc", u32(0) + u32(1) + u32(1) + u32(1) + u32(1))
        let stsz = box("stsz", u32(0) + u32(0) + u32(1) + u32(9))
        let stco = box("stco", u32(0) + u32(1) + u32(UInt32(mdatPayload)))
        let stbl = box("stbl", stsd + stts + stsc + stsz + stco)
        let dinf = box("dinf", box("dref", u32(0) + u32(1) + box("url ", u32(1))))
        let minf = box("minf", box("nmhd", u32(0)) + dinf + stbl)
        let hdlr = box("hdlr", u32(0) + u32(0) + Array("meta".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let mdhd = box("mdhd", u32(0) + u32(0) + u32(0) + u32(mediaScale) + u32(20) + u16(0x55C4) + u16(0))
        let mdia = box("mdia", mdhd + hdlr + minf)
        let oneFrame = UInt32(Double(movieScale) / 30)
        let elst = box("elst", u32(0) + u32(2) + u32(emptyEdit) + u32(0xFFFF_FFFF) + u32(0x0001_0000) + u32(oneFrame) + u32(0) + u32(0x0001_0000))
        let edts = box("edts", elst)
        let identity: [UInt32] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000]
        let tkhd = box(
            "tkhd",
            u32(0x0000_0001) + u32(0) + u32(0) + u32(99) + u32(0) + u32(emptyEdit + oneFrame) + u32(0) + u32(0) + u16(0) + u16(0) + u16(0) + u16(0)
                + identity.flatMap(u32) + u32(0) + u32(0))
        let trak = box("trak", tkhd + edts + mdia)
        bytes += trak
        let newSize = UInt32(moov.size + trak.count)
        bytes.replaceSubrange(moov.start..<(moov.start + 4), with: u32(newSize))
        try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
    }

    private static func movieTimescale(_ d: [UInt8], moov: (start: Int, size: Int)) throws -> UInt32 {
        var offset = moov.start + 8
        while offset + 8 <= moov.start + moov.size {
            let size = Int(be32(d, offset))
            if String(decoding: d[(offset + 4)..<(offset + 8)], as: UTF8.self) == "mvhd" {
                return be32(d, offset + 8 + (d[offset + 8] == 1 ? 20 : 12))
            }
            guard size >= 8 else { break }
            offset += size
        }
        throw Clips.Failure(description: "no mvhd")
    }

    static func be32(_ d: [UInt8], _ i: Int) -> UInt32 {
        UInt32(d[i]) << 24 | UInt32(d[i + 1]) << 16 | UInt32(d[i + 2]) << 8 | UInt32(d[i + 3])
    }

    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32raw(_ v: UInt32) -> [UInt8] { u32(v) }
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        box(Array(type.utf8), payload)
    }

    static func box(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + type + payload
    }
}
