/// The few things Sepia reads from an ISO base media file's boxes itself, because FFmpeg does not report them:
/// whether the top-level boxes fit in the file (a truncated copy), and a Live Photo's still-image time, which is
/// the time of the sample of a timed metadata track (`mebx`) keyed `com.apple.quicktime.still-image-time`.
///
/// Every size is checked against its parent before it is used, and the walk is bounded in boxes and bytes.
enum QuickTimeBoxes {
    struct Box {
        var type: String
        /// The offset of the payload, after the header.
        var start: Int
        /// The offset just past the box.
        var end: Int
        /// The offset of the box's header (its size, then its type).
        var offset = 0

        /// The type's four bytes as Latin-1, so that QuickTime's `©xyz` reads as itself.
        func rawType(in d: [UInt8]) -> String {
            String(String.UnicodeScalarView(d[(offset + 4)..<(offset + 8)].map { Unicode.Scalar($0) }))
        }
    }

    /// The top-level boxes of a file of `size` bytes, read through `read`; `truncation` describes a box that
    /// runs past the end of the file.
    static func topLevel(size: Int, read: (Int, Int) -> [UInt8]?) -> (boxes: [Box], truncation: String?) {
        var boxes: [Box] = []
        var offset = 0
        while offset + 8 <= size && boxes.count < 10_000 {
            guard let header = read(offset, 16) ?? read(offset, 8) else { break }
            var length = Int(be32(header, 0))
            let type = fourCC(header, 4)
            var headerSize = 8
            if length == 1 {
                guard header.count >= 16 else { break }
                let large = be64(header, 8)
                guard large <= UInt64(Int.max) else { return (boxes, "the '\(type)' box declares an impossible size") }
                length = Int(large)
                headerSize = 16
            } else if length == 0 {
                length = size - offset
            }
            guard length >= headerSize else { return (boxes, nil) }  // not boxes any more; FFmpeg judges the rest
            let end = offset.addingReportingOverflow(length)
            if end.overflow || end.partialValue > size {
                boxes.append(Box(type: type, start: offset + headerSize, end: size))
                return (boxes, "the file is truncated: the '\(type)' box at byte \(offset) declares \(length) bytes, \(size - offset) are present")
            }
            boxes.append(Box(type: type, start: offset + headerSize, end: end.partialValue))
            offset = end.partialValue
        }
        return (boxes, nil)
    }

    /// The still-image time, in seconds, of a movie whose `moov` box's payload is `moov`; nil when no track
    /// carries the still-image-time key.
    static func stillImageTime(moov: [UInt8]) -> Double? {
        let children = boxes(in: moov, from: 0, to: moov.count)
        guard let mvhd = children.first(where: { $0.type == "mvhd" }), let movieScale = timescale(ofHeader: moov, mvhd), movieScale > 0 else {
            return nil
        }
        for trak in children where trak.type == "trak" {
            let trakChildren = boxes(in: moov, from: trak.start, to: trak.end)
            guard let mdia = trakChildren.first(where: { $0.type == "mdia" }) else { continue }
            let mdiaChildren = boxes(in: moov, from: mdia.start, to: mdia.end)
            guard let mdhd = mdiaChildren.first(where: { $0.type == "mdhd" }), let mediaScale = timescale(ofHeader: moov, mdhd), mediaScale > 0,
                let minf = mdiaChildren.first(where: { $0.type == "minf" }),
                let stbl = boxes(in: moov, from: minf.start, to: minf.end).first(where: { $0.type == "stbl" })
            else { continue }
            let tables = boxes(in: moov, from: stbl.start, to: stbl.end)
            guard let stsd = tables.first(where: { $0.type == "stsd" }), keys(inSampleDescription: moov, stsd).contains(stillImageTimeKey) else {
                continue
            }
            guard let sampleTime = firstSampleTime(moov, tables) else { return nil }
            let edits = trakChildren.first(where: { $0.type == "edts" }).map { boxes(in: moov, from: $0.start, to: $0.end) } ?? []
            let offset =
                edits.first(where: { $0.type == "elst" }).flatMap { editOffset(moov, $0, movieScale: movieScale, mediaScale: mediaScale) } ?? 0
            let time = Double(sampleTime) / Double(mediaScale) + offset
            return time.isFinite && time >= 0 ? time : nil
        }
        return nil
    }

    static let stillImageTimeKey = "com.apple.quicktime.still-image-time"

    // MARK: - Boxes in memory

    /// The boxes between `from` and `to` in `d`; stops at the first malformed header.
    static func boxes(in d: [UInt8], from: Int, to: Int) -> [Box] {
        var result: [Box] = []
        var offset = from
        let limit = min(to, d.count)
        while offset + 8 <= limit && result.count < 4096 {
            var length = Int(be32(d, offset))
            var headerSize = 8
            if length == 1 {
                guard offset + 16 <= limit else { break }
                let large = be64(d, offset + 8)
                guard large <= UInt64(limit - offset) else { break }
                length = Int(large)
                headerSize = 16
            } else if length == 0 {
                length = limit - offset
            }
            guard length >= headerSize, length <= limit - offset else { break }
            result.append(Box(type: fourCC(d, offset + 4), start: offset + headerSize, end: offset + length, offset: offset))
            offset += length
        }
        return result
    }

    /// The timescale of an `mvhd` or `mdhd` box (version 0: 32-bit times; version 1: 64-bit).
    private static func timescale(ofHeader d: [UInt8], _ box: Box) -> UInt32? {
        guard box.start + 4 <= box.end else { return nil }
        let position = box.start + (d[box.start] == 1 ? 20 : 12)
        guard position + 4 <= box.end else { return nil }
        return be32(d, position)
    }

    /// The keys of a `mebx` sample description: its `keys` box holds one box per key, each with a `keyd`
    /// (namespace `mdta`, then the key's name).
    private static func keys(inSampleDescription d: [UInt8], _ stsd: Box) -> [String] {
        // stsd: version and flags, entry count, then the entries.
        guard stsd.start + 8 <= stsd.end else { return [] }
        var names: [String] = []
        for entry in boxes(in: d, from: stsd.start + 8, to: stsd.end) where entry.type == "mebx" {
            // A sample entry: six reserved bytes and a data reference index, then boxes.
            for keysBox in boxes(in: d, from: entry.start + 8, to: entry.end) where keysBox.type == "keys" {
                for key in boxes(in: d, from: keysBox.start, to: keysBox.end) {
                    for keyd in boxes(in: d, from: key.start, to: key.end) where keyd.type == "keyd" && keyd.start + 4 <= keyd.end {
                        names.append(String(decoding: d[(keyd.start + 4)..<keyd.end], as: UTF8.self))
                    }
                }
            }
        }
        return names
    }

    /// The media time of the first sample with data: the durations (`stts`) of the empty samples (`stsz`)
    /// before it.
    private static func firstSampleTime(_ d: [UInt8], _ tables: [Box]) -> UInt64? {
        guard let stts = tables.first(where: { $0.type == "stts" }), stts.start + 8 <= stts.end else { return nil }
        var sizes: (uniform: UInt32, count: Int, start: Int)?
        if let stsz = tables.first(where: { $0.type == "stsz" }), stsz.start + 12 <= stsz.end {
            sizes = (be32(d, stsz.start + 4), Int(be32(d, stsz.start + 8)), stsz.start + 12)
        }
        func sampleSize(_ index: Int) -> UInt32 {
            guard let sizes else { return 1 }
            if sizes.uniform != 0 { return sizes.uniform }
            let at = sizes.start + index * 4
            return index < sizes.count && at + 4 <= d.count ? be32(d, at) : 1
        }
        let entries = Int(be32(d, stts.start + 4))
        var time: UInt64 = 0
        var index = 0
        for e in 0..<min(entries, (stts.end - stts.start - 8) / 8) {
            let count = Int(be32(d, stts.start + 8 + e * 8))
            let delta = UInt64(be32(d, stts.start + 12 + e * 8))
            for _ in 0..<min(count, 100_000) {
                if sampleSize(index) > 0 { return time }
                time += delta
                index += 1
                if index > 100_000 { return nil }
            }
        }
        return index == 0 ? 0 : nil
    }

    /// The presentation offset an edit list gives the media: its empty edits (media time -1, in the movie's
    /// timescale) minus the media time its first real edit starts at.
    static func editOffset(_ d: [UInt8], _ elst: Box, movieScale: UInt32, mediaScale: UInt32) -> Double? {
        guard elst.start + 8 <= elst.end else { return nil }
        let version = d[elst.start]
        let count = Int(be32(d, elst.start + 4))
        let entrySize = version == 1 ? 20 : 12
        var empty: Double = 0
        var position = elst.start + 8
        for _ in 0..<min(count, 64) {
            guard position + entrySize <= elst.end else { break }
            let duration = version == 1 ? Double(be64(d, position)) : Double(be32(d, position))
            let mediaTime = version == 1 ? Int64(bitPattern: be64(d, position + 8)) : Int64(Int32(bitPattern: be32(d, position + 4)))
            if mediaTime == -1 {
                empty += duration / Double(movieScale)
            } else {
                return empty - Double(mediaTime) / Double(mediaScale)
            }
            position += entrySize
        }
        return empty
    }

    // MARK: - Bytes

    static func be32(_ d: [UInt8], _ i: Int) -> UInt32 {
        UInt32(d[i]) << 24 | UInt32(d[i + 1]) << 16 | UInt32(d[i + 2]) << 8 | UInt32(d[i + 3])
    }

    static func be64(_ d: [UInt8], _ i: Int) -> UInt64 {
        UInt64(be32(d, i)) << 32 | UInt64(be32(d, i + 4))
    }

    static func fourCC(_ d: [UInt8], _ i: Int) -> String {
        String(decoding: d[i..<(i + 4)].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}
