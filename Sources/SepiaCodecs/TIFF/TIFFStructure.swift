/// What a TIFF-structured file holds, read from its IFDs: camera RAW files (NEF, ARW, PEF, DNG, KDC, …) are TIFF
/// files whose main image is a sensor's mosaic, and must go to SepiaRAW, never to the TIFF decoder (which would
/// show their small first-IFD preview as the photo).
///
/// Every read is bounds-checked, IFD chains are followed at most 16 deep and loops end the walk.
enum TIFFStructure {
    /// Whether the IFDs describe camera RAW data: a DNG version, a colour-filter-array or linear-raw image, or a
    /// compression only cameras write (Nikon's, Sony's, Kodak's, Pentax's).
    static func describesCameraRAW(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return false }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return false
        }
        if bytes.count >= 10, bytes[8] == 0x43, bytes[9] == 0x52 { return true }  // Canon CR2: "CR" after the header
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : Int(bytes[o]) << 8 | Int(bytes[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        var visited = Set<Int>()
        var pending: [Int] = []
        if let first = u32(4) { pending.append(first) }
        let rawCompressions: Set<Int> = [32767, 32769, 32770, 32772, 34713, 65000, 65535, 262, 99, 7 << 16]
        while let ifd = pending.popLast(), visited.count < 16 {
            guard ifd >= 8, visited.insert(ifd).inserted, let count = u16(ifd), count > 0, count <= 1024 else { continue }
            for i in 0..<count {
                let entry = ifd + 2 + 12 * i
                guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { break }
                let short = type == 3 ? u16(entry + 8) : type == 4 ? u32(entry + 8) : nil
                switch tag {
                case 50706: return true  // DNGVersion
                case 262 where short == 32803 || short == 34892: return true  // CFA, LinearRaw
                case 259 where short.map(rawCompressions.contains) == true: return true
                case 330:  // SubIFDs
                    if n == 1, let offset = u32(entry + 8) {
                        pending.append(offset)
                    } else if n > 1, n <= 16, let table = u32(entry + 8) {
                        for k in 0..<n { if let offset = u32(table + 4 * k) { pending.append(offset) } }
                    }
                default: break
                }
            }
            if let next = u32(ifd + 2 + 12 * count), next != 0 { pending.append(next) }
        }
        return false
    }
}
