import Foundation

/// What an MP4, MOV or 3GP file's `moov` box says, read by Sepia itself: the tracks' codecs, geometry,
/// colour, timing and sample counts, and the movie's metadata, named as FFmpeg's `mov` demuxer names them.
///
/// This is what a probe of the files cameras and phones write needs, without loading FFmpeg's libraries (about
/// 130 shared objects, several times the cost of reading the headers). Anything out of the ordinary — a
/// fragmented movie, an unknown sample entry, a mirrored display matrix, an HDR stream whose colour is not in
/// its headers — makes ``parse(moov:)`` answer nil, and FFmpeg reads the file instead.
///
/// Every offset is checked against its box before it is read; the walk is bounded (``QuickTimeBoxes``).
struct MovieHeaders {
    struct Track {
        /// `vide`, `soun`, `meta`, `tmcd`, `text`…
        var handler = ""
        /// The media's timescale and duration (`mdhd`).
        var timescale: UInt32 = 0
        var duration: UInt64 = 0
        /// ISO 639-2, nil when undetermined.
        var language: String?
        /// The sample entry's four-character code (`avc1`, `hvc1`, `mp4a`…).
        var sampleEntry = ""
        var width = 0
        var height = 0
        /// The codec configuration record (`avcC`, `hvcC`, `av1C`, `vpcC`).
        var configuration: [UInt8] = []
        /// MPEG-4 object type of an `mp4v`/`mp4a` entry (`esds`).
        var objectType: UInt8?
        /// The decoder-specific information of an `esds` (AAC's AudioSpecificConfig).
        var decoderSpecific: [UInt8] = []
        /// `pasp`: the pixel aspect ratio.
        var pixelAspect: (h: Int, v: Int)?
        /// `colr` (`nclx` or `nclc`): primaries, transfer, matrix, and the full-range flag (`nclx` only).
        var colour: (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool?)?
        /// `mdcv`: the mastering display's peak luminance in cd/m²; `clli`: MaxCLL.
        var masteringPeak: Double?
        var maxContentLight: Double?
        /// The sound entry's channels and sample rate.
        var channels = 0
        var sampleRate = 0
        /// `tkhd`'s display matrix: a, b, c, d in 16.16.
        var matrix: (a: Int32, b: Int32, c: Int32, d: Int32) = (0x10000, 0, 0, 0x10000)
        /// `stsz`: the number of samples and their total size in bytes.
        var sampleCount = 0
        var sampleBytes: UInt64 = 0
        /// `stts`: the sum of the sample durations, in the media's timescale.
        var sampleDuration: UInt64 = 0
        /// `mdhd`'s creation time, seconds since 1904.
        var creationTime: UInt64 = 0
        /// Where the sample tables (`stts`, `ctts`, `stss`, `stsc`, `stsz`, `stco`, `co64`) and the edit list
        /// (`elst`) are in the `moov` payload, for ``MovieSampleIndex``.
        var tables: [String: QuickTimeBoxes.Box] = [:]
    }

    var timescale: UInt32 = 0
    var duration: UInt64 = 0
    /// `mvhd`'s creation time, seconds since 1904.
    var creationTime: UInt64 = 0
    var tracks: [Track] = []
    /// The movie's metadata: QuickTime `mdta` keys, iTunes-style `ilst` items and `udta` strings, in FFmpeg's
    /// names (`com.apple.quicktime.creationdate`, `location`, `make`, `model`, `encoder`…).
    var tags: [(String, String)] = []

    /// The headers in `moov`'s payload; nil when the movie is not one this reader describes fully.
    static func parse(moov d: [UInt8]) -> MovieHeaders? {
        var movie = MovieHeaders()
        for box in QuickTimeBoxes.boxes(in: d, from: 0, to: d.count) {
            switch box.type {
            case "mvhd":
                guard let (scale, duration, created) = mediaHeader(d, box) else { return nil }
                (movie.timescale, movie.duration, movie.creationTime) = (scale, duration, created)
            case "trak":
                guard let track = Self.track(d, box) else { return nil }
                movie.tracks.append(track)
            case "mvex":
                return nil  // fragmented: the samples are in `moof` boxes
            case "udta":
                movie.tags += userData(d, box)
            case "meta":
                movie.tags += metadata(d, box, fullBox: true)
            default:
                break
            }
        }
        guard movie.timescale > 0, !movie.tracks.isEmpty else { return nil }
        return movie
    }

    // MARK: - Tracks

    private static func track(_ d: [UInt8], _ trak: QuickTimeBoxes.Box) -> Track? {
        var track = Track()
        for box in QuickTimeBoxes.boxes(in: d, from: trak.start, to: trak.end) {
            switch box.type {
            case "tkhd":
                // Version 0: 32-bit times, matrix at 40; version 1: 64-bit times, matrix at 52 (after the header).
                guard box.start < box.end else { return nil }
                let matrixAt = box.start + (d[box.start] == 1 ? 52 : 40)
                guard matrixAt + 36 <= box.end else { return nil }
                let value = { (i: Int) in Int32(bitPattern: QuickTimeBoxes.be32(d, matrixAt + i * 4)) }
                track.matrix = (value(0), value(1), value(3), value(4))
            case "mdia":
                guard media(d, box, into: &track) else { return nil }
            case "edts":
                if let elst = QuickTimeBoxes.boxes(in: d, from: box.start, to: box.end).first(where: { $0.type == "elst" }) {
                    track.tables["elst"] = elst
                }
            default:
                break
            }
        }
        return track
    }

    private static func media(_ d: [UInt8], _ mdia: QuickTimeBoxes.Box, into track: inout Track) -> Bool {
        for box in QuickTimeBoxes.boxes(in: d, from: mdia.start, to: mdia.end) {
            switch box.type {
            case "mdhd":
                guard let (scale, duration, created) = mediaHeader(d, box) else { return false }
                (track.timescale, track.duration, track.creationTime) = (scale, duration, created)
                let languageAt = box.start + (d[box.start] == 1 ? 32 : 20)
                guard languageAt + 2 <= box.end else { return false }
                guard let language = language(UInt16(d[languageAt]) << 8 | UInt16(d[languageAt + 1])) else { return false }
                track.language = language.isEmpty ? nil : language
            case "hdlr":
                guard box.start + 12 <= box.end else { return false }
                track.handler = QuickTimeBoxes.fourCC(d, box.start + 8)
            case "minf":
                for stbl in QuickTimeBoxes.boxes(in: d, from: box.start, to: box.end) where stbl.type == "stbl" {
                    guard sampleTables(d, stbl, into: &track) else { return false }
                }
            default:
                break
            }
        }
        return true
    }

    /// `mvhd` and `mdhd`: timescale, duration and creation time, in version 0's or 1's widths.
    private static func mediaHeader(_ d: [UInt8], _ box: QuickTimeBoxes.Box) -> (UInt32, UInt64, UInt64)? {
        guard box.start + 4 <= box.end else { return nil }
        if d[box.start] == 1 {
            guard box.start + 32 <= box.end else { return nil }
            return (QuickTimeBoxes.be32(d, box.start + 20), QuickTimeBoxes.be64(d, box.start + 24), QuickTimeBoxes.be64(d, box.start + 4))
        }
        guard box.start + 20 <= box.end else { return nil }
        let duration = QuickTimeBoxes.be32(d, box.start + 16)
        return (
            QuickTimeBoxes.be32(d, box.start + 12), duration == .max ? 0 : UInt64(duration), UInt64(QuickTimeBoxes.be32(d, box.start + 4))
        )
    }

    /// The first Macintosh language codes, as FFmpeg translates them (`mov_mdhd_language_map`).
    static let macintoshLanguages = ["eng", "fra", "ger", "ita", "dut", "sve", "spa", "dan", "por"]

    /// An `mdhd` language: ISO 639-2 packed in three 5-bit letters; "" for undetermined; nil for a Macintosh
    /// language code this reader does not translate.
    private static func language(_ code: UInt16) -> String? {
        if code == 0x55C4 || code == 0x7FFF { return "" }
        if code < macintoshLanguages.count { return macintoshLanguages[Int(code)] }
        guard code >= 0x400 else { return nil }
        let letters = [(code >> 10) & 0x1F, (code >> 5) & 0x1F, code & 0x1F].map { UInt8($0) + 0x60 }
        guard letters.allSatisfy({ (0x61...0x7A).contains($0) }) else { return nil }
        let text = String(decoding: letters, as: UTF8.self)
        return text == "und" ? "" : text
    }

    private static func sampleTables(_ d: [UInt8], _ stbl: QuickTimeBoxes.Box, into track: inout Track) -> Bool {
        for box in QuickTimeBoxes.boxes(in: d, from: stbl.start, to: stbl.end) {
            switch box.type {
            case "stsd":
                guard box.start + 8 <= box.end, let entry = QuickTimeBoxes.boxes(in: d, from: box.start + 8, to: box.end).first else { return false }
                track.sampleEntry = entry.type
                if track.handler == "vide" {
                    guard visualEntry(d, entry, into: &track) else { return false }
                } else if track.handler == "soun" {
                    guard soundEntry(d, entry, into: &track) else { return false }
                }
            case "ctts", "stss", "stsc", "stco", "co64":
                track.tables[box.type] = box
            case "stsz":
                track.tables[box.type] = box
                guard box.start + 12 <= box.end else { return false }
                let uniform = UInt64(QuickTimeBoxes.be32(d, box.start + 4))
                let count = Int(QuickTimeBoxes.be32(d, box.start + 8))
                track.sampleCount = count
                if uniform != 0 {
                    let (bytes, overflow) = uniform.multipliedReportingOverflow(by: UInt64(count))
                    guard !overflow else { return false }
                    track.sampleBytes = bytes
                } else {
                    guard count <= (box.end - box.start - 12) / 4 else { return false }
                    var total: UInt64 = 0
                    for i in 0..<count { total += UInt64(QuickTimeBoxes.be32(d, box.start + 12 + i * 4)) }
                    track.sampleBytes = total
                }
            case "stts":
                track.tables[box.type] = box
                guard box.start + 8 <= box.end else { return false }
                let entries = Int(QuickTimeBoxes.be32(d, box.start + 4))
                guard entries <= (box.end - box.start - 8) / 8 else { return false }
                var total: UInt64 = 0
                for e in 0..<entries {
                    let span = UInt64(QuickTimeBoxes.be32(d, box.start + 8 + e * 8)) * UInt64(QuickTimeBoxes.be32(d, box.start + 12 + e * 8))
                    let (sum, overflow) = total.addingReportingOverflow(span)
                    guard !overflow else { return false }
                    total = sum
                }
                track.sampleDuration = total
            default:
                break
            }
        }
        return true
    }

    /// A visual sample entry: 78 bytes (reserved, data reference, predefined, width and height at 24), then boxes.
    private static func visualEntry(_ d: [UInt8], _ entry: QuickTimeBoxes.Box, into track: inout Track) -> Bool {
        guard entry.start + 78 <= entry.end else { return false }
        track.width = Int(UInt16(d[entry.start + 24]) << 8 | UInt16(d[entry.start + 25]))
        track.height = Int(UInt16(d[entry.start + 26]) << 8 | UInt16(d[entry.start + 27]))
        for box in QuickTimeBoxes.boxes(in: d, from: entry.start + 78, to: entry.end) {
            switch box.type {
            case "avcC", "hvcC", "av1C":
                track.configuration = Array(d[box.start..<box.end])
            case "vpcC":
                track.configuration = Array(d[box.start..<box.end])
            case "esds":
                (track.objectType, track.decoderSpecific) = elementaryStream(d, box) ?? (nil, [])
            case "pasp":
                guard box.start + 8 <= box.end else { return false }
                track.pixelAspect = (Int(QuickTimeBoxes.be32(d, box.start)), Int(QuickTimeBoxes.be32(d, box.start + 4)))
            case "colr":
                guard box.start + 10 <= box.end else { return false }
                let kind = QuickTimeBoxes.fourCC(d, box.start)
                guard kind == "nclx" || kind == "nclc" else { continue }  // an ICC profile: not a video's colour
                let u16 = { (i: Int) in Int(UInt16(d[box.start + i]) << 8 | UInt16(d[box.start + i + 1])) }
                var full: Bool?
                if kind == "nclx" {
                    guard box.start + 11 <= box.end else { return false }
                    full = d[box.start + 10] & 0x80 != 0
                }
                track.colour = (u16(4), u16(6), u16(8), full)
            case "mdcv":
                guard box.start + 24 <= box.end else { return false }
                track.masteringPeak = Double(QuickTimeBoxes.be32(d, box.start + 16)) / 10_000
            case "clli":
                guard box.start + 4 <= box.end else { return false }
                track.maxContentLight = Double(UInt16(d[box.start]) << 8 | UInt16(d[box.start + 1]))
            default:
                break
            }
        }
        return true
    }

    /// A sound sample entry: version 0 or 1 (QuickTime's two versions share the first 28 bytes: channels at 16,
    /// sample rate in 16.16 at 24); version 2 puts them elsewhere and is left to FFmpeg.
    private static func soundEntry(_ d: [UInt8], _ entry: QuickTimeBoxes.Box, into track: inout Track) -> Bool {
        guard entry.start + 28 <= entry.end else { return false }
        let version = UInt16(d[entry.start + 8]) << 8 | UInt16(d[entry.start + 9])
        guard version <= 1 else { return false }
        track.channels = Int(UInt16(d[entry.start + 16]) << 8 | UInt16(d[entry.start + 17]))
        track.sampleRate = Int(QuickTimeBoxes.be32(d, entry.start + 24) >> 16)
        let childrenAt = entry.start + (version == 1 ? 44 : 28)
        for box in QuickTimeBoxes.boxes(in: d, from: childrenAt, to: entry.end) {
            // QuickTime puts the `esds` in a `wave` box.
            let inner = box.type == "wave" ? QuickTimeBoxes.boxes(in: d, from: box.start, to: box.end) : [box]
            for esds in inner where esds.type == "esds" {
                (track.objectType, track.decoderSpecific) = elementaryStream(d, esds) ?? (nil, [])
            }
        }
        // AAC's own configuration says the channels and rate (a 3GP entry always says two channels).
        if track.objectType == 0x40, let (rate, channels) = audioSpecificConfig(track.decoderSpecific) {
            if channels > 0 { track.channels = channels }
            if rate > 0 { track.sampleRate = rate }
        }
        return true
    }

    /// The `objectTypeIndication` of an `esds` box's DecoderConfigDescriptor (ISO/IEC 14496-1 §7.2.6.6), and
    /// its DecoderSpecificInfo.
    private static func elementaryStream(_ d: [UInt8], _ box: QuickTimeBoxes.Box) -> (UInt8, [UInt8])? {
        var i = box.start + 4  // version and flags
        /// Reads a descriptor's tag and length; returns the length.
        func descriptor(_ tag: UInt8) -> Int? {
            guard i < box.end, d[i] == tag else { return nil }
            i += 1
            var length = 0
            for _ in 0..<4 {  // up to four bytes of seven bits
                guard i < box.end else { return nil }
                length = length << 7 | Int(d[i] & 0x7F)
                let more = d[i] & 0x80 != 0
                i += 1
                if !more { break }
            }
            return length
        }
        guard descriptor(0x03) != nil, i + 3 <= box.end else { return nil }
        let flags = d[i + 2]
        i += 3
        if flags & 0x80 != 0 { i += 2 }
        if flags & 0x40 != 0 {
            guard i < box.end else { return nil }
            i += 1 + Int(d[i])
        }
        if flags & 0x20 != 0 { i += 2 }
        guard descriptor(0x04) != nil, i + 13 <= box.end else { return nil }
        let type = d[i]
        i += 13  // object type, stream type, buffer size, maximum and average bit rates
        guard let length = descriptor(0x05), length <= box.end - i else { return (type, []) }
        return (type, Array(d[i..<(i + length)]))
    }

    /// AAC's AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1): the sampling rate and channel configuration.
    private static func audioSpecificConfig(_ c: [UInt8]) -> (rate: Int, channels: Int)? {
        guard c.count >= 2 else { return nil }
        var bit = 0
        func bits(_ n: Int) -> Int? {
            var value = 0
            for _ in 0..<n {
                guard bit / 8 < c.count else { return nil }
                value = value << 1 | Int(c[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
                bit += 1
            }
            return value
        }
        guard var object = bits(5) else { return nil }
        if object == 31 { object = 32 + (bits(6) ?? 0) }
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        guard let index = bits(4) else { return nil }
        let rate: Int
        if index == 15 {
            guard let explicit = bits(24) else { return nil }
            rate = explicit
        } else {
            rate = index < rates.count ? rates[index] : 0
        }
        guard let channels = bits(4) else { return nil }
        // 1–6 are that many channels, 7 is 7.1 (8); 0 is a program config element this reader leaves to the entry.
        return (rate, channels == 7 ? 8 : channels <= 6 ? channels : 0)
    }

    // MARK: - Metadata

    /// FFmpeg's names of the `udta` and `ilst` atoms cameras write.
    static let atomNames: [String: String] = [
        "©xyz": "location", "©mak": "make", "©mod": "model", "©swr": "encoder", "©too": "encoder", "©day": "date", "©nam": "title",
        "©cmt": "comment", "©des": "description", "©ART": "artist",
    ]

    /// `udta`: QuickTime's international text atoms (`©xyz`: a 16-bit length, a language, the text), and a
    /// `meta` box of iTunes-style items.
    private static func userData(_ d: [UInt8], _ udta: QuickTimeBoxes.Box) -> [(String, String)] {
        var tags: [(String, String)] = []
        for box in QuickTimeBoxes.boxes(in: d, from: udta.start, to: udta.end) {
            let type = box.rawType(in: d)
            if type == "meta" {
                tags += metadata(d, box, fullBox: true)
            } else if type == "loci", let place = location(d, box) {
                tags.append(("location", place))
            } else if let name = atomNames[type], box.start + 4 <= box.end {
                let length = Int(UInt16(d[box.start]) << 8 | UInt16(d[box.start + 1]))
                let end = min(box.end, box.start + 4 + length)
                if box.start + 4 <= end { tags.append((name, String(decoding: d[(box.start + 4)..<end], as: UTF8.self))) }
            }
        }
        return tags
    }

    /// 3GPP's `loci` (TS 26.244 §8.9): version and flags, a language, the place's name, its role, then longitude,
    /// latitude and altitude in 16.16 — as FFmpeg writes it, in ISO 6709 like `©xyz`.
    private static func location(_ d: [UInt8], _ box: QuickTimeBoxes.Box) -> String? {
        var i = box.start + 6
        while i < box.end, d[i] != 0 { i += 1 }  // the name
        i += 2  // its terminator, the role
        guard i + 12 <= box.end else { return nil }
        let fixed = { (at: Int) in Float(Int32(bitPattern: QuickTimeBoxes.be32(d, at))) / 65536 }
        let (longitude, latitude, altitude) = (fixed(i), fixed(i + 4), fixed(i + 8))
        var text = String(format: "%+08.4f%+09.4f", Double(latitude), Double(longitude))
        if altitude != 0 { text += String(format: "%+f", Double(altitude)) }
        return text + "/"
    }

    /// A `meta` box: QuickTime's (`keys` naming the items of `ilst` by index) or iTunes' (`ilst` items named by
    /// their atom). Values are the `data` boxes of text (type 1) and, for keys, numbers as text.
    private static func metadata(_ d: [UInt8], _ meta: QuickTimeBoxes.Box, fullBox: Bool) -> [(String, String)] {
        // QuickTime's `meta` has no version and flags; the ISO `meta` (in `udta`) does. Tell them apart by
        // whether a box header follows at once.
        var start = meta.start
        if fullBox, start + 8 <= meta.end, QuickTimeBoxes.boxes(in: d, from: start, to: meta.end).first?.type != "hdlr" { start += 4 }
        let children = QuickTimeBoxes.boxes(in: d, from: start, to: meta.end)
        var keys: [String] = []
        if let keysBox = children.first(where: { $0.type == "keys" }), keysBox.start + 8 <= keysBox.end {
            var i = keysBox.start + 8
            while i + 8 <= keysBox.end, keys.count < 1000 {
                let size = Int(QuickTimeBoxes.be32(d, i))
                guard size >= 8, i + size <= keysBox.end else { break }
                keys.append(String(decoding: d[(i + 8)..<(i + size)], as: UTF8.self))
                i += size
            }
        }
        var tags: [(String, String)] = []
        guard let ilst = children.first(where: { $0.type == "ilst" }) else { return tags }
        for item in QuickTimeBoxes.boxes(in: d, from: ilst.start, to: ilst.end) {
            let index = Int(QuickTimeBoxes.be32(d, item.offset + 4))
            let name: String
            if !keys.isEmpty {
                guard index >= 1, index <= keys.count else { continue }
                name = keys[index - 1]
            } else {
                guard let known = atomNames[item.rawType(in: d)] else { continue }
                name = known
            }
            guard let data = QuickTimeBoxes.boxes(in: d, from: item.start, to: item.end).first(where: { $0.type == "data" }),
                data.start + 8 <= data.end
            else { continue }
            let type = QuickTimeBoxes.be32(d, data.start) & 0xFFFFFF
            let value = Array(d[(data.start + 8)..<data.end])
            switch type {
            case 1: tags.append((name, String(decoding: value, as: UTF8.self)))
            case 23 where value.count == 4: tags.append((name, String(Float(bitPattern: QuickTimeBoxes.be32(value, 0)))))
            case 21, 22:
                guard (1...8).contains(value.count) else { continue }
                let raw = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let shift = UInt64(64 - 8 * value.count)
                let signed = Int64(bitPattern: raw << shift) >> Int64(shift)
                tags.append((name, type == 21 ? String(signed) : String(raw)))
            default:
                continue
            }
        }
        return tags
    }
}
