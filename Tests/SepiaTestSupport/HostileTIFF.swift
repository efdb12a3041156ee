/// Small TIFF files made in the tests: one IFD of the tags given, the same few bytes of data for every strip or
/// tile. Their headers can declare what no honest file does (tiles far larger than the image, thousands of
/// samples a pixel), which is what the decode memory budget is tested with.
public enum HostileTIFF {
    /// The shape of the file's first page.
    public struct Shape: Sendable {
        public var width: UInt32 = 64
        public var height: UInt32 = 64
        public var bitsPerSample: UInt16 = 8
        public var samplesPerPixel: UInt16 = 3
        /// 1 grey, 2 RGB, 6 YCbCr.
        public var photometric: UInt16 = 2
        /// 1 chunky, 2 planar.
        public var planar: UInt16 = 1
        /// Tile width and length; nil for strips.
        public var tile: (width: UInt32, length: UInt32)?
        /// Rows a strip; nil for one strip of the whole image.
        public var rowsPerStrip: UInt32?
        /// YCbCr subsampling, horizontal and vertical.
        public var subsampling: (UInt16, UInt16)?
        /// The bytes of each strip or tile.
        public var data: [UInt8] = [UInt8](repeating: 0x80, count: 64)

        /// A shape; every field not given is a 64×64 8-bit RGB image in one strip.
        public init(
            width: UInt32 = 64, height: UInt32 = 64, bitsPerSample: UInt16 = 8, samplesPerPixel: UInt16 = 3, photometric: UInt16 = 2,
            planar: UInt16 = 1, tile: (width: UInt32, length: UInt32)? = nil, rowsPerStrip: UInt32? = nil,
            subsampling: (UInt16, UInt16)? = nil, data: [UInt8] = [UInt8](repeating: 0x80, count: 64)
        ) {
            self.width = width
            self.height = height
            self.bitsPerSample = bitsPerSample
            self.samplesPerPixel = samplesPerPixel
            self.photometric = photometric
            self.planar = planar
            self.tile = tile
            self.rowsPerStrip = rowsPerStrip
            self.subsampling = subsampling
            self.data = data
        }
    }

    /// The 216-byte file of the review: a 64×64 8-bit RGB image in tiles of `side`×`side` pixels.
    public static func tiles(_ side: UInt32) -> [UInt8] {
        make(Shape(tile: (side, side)))
    }

    /// A little-endian TIFF of `shape`.
    public static func make(_ shape: Shape) -> [UInt8] {
        let colourSamples: UInt16 = shape.photometric == 2 || shape.photometric == 6 ? 3 : 1
        let planes = shape.planar == 2 ? Int(shape.samplesPerPixel) : 1
        let chunks: Int
        var entries: [(tag: UInt16, type: UInt16, values: [UInt32])] = []
        let short: UInt16 = 3
        let long: UInt16 = 4
        entries.append((256, long, [shape.width]))
        entries.append((257, long, [shape.height]))
        entries.append((258, short, [UInt32](repeating: UInt32(shape.bitsPerSample), count: Int(shape.samplesPerPixel))))
        entries.append((259, short, [1]))
        entries.append((262, short, [UInt32(shape.photometric)]))
        entries.append((277, short, [UInt32(shape.samplesPerPixel)]))
        entries.append((284, short, [UInt32(shape.planar)]))
        if shape.samplesPerPixel > colourSamples {
            entries.append((338, short, [UInt32](repeating: 0, count: Int(shape.samplesPerPixel - colourSamples))))
        }
        if let subsampling = shape.subsampling {
            entries.append((530, short, [UInt32(subsampling.0), UInt32(subsampling.1)]))
        }
        let offsetsTag: UInt16
        let countsTag: UInt16
        if let tile = shape.tile {
            let across = (Int(shape.width) + Int(tile.width) - 1) / Int(tile.width)
            let down = (Int(shape.height) + Int(tile.length) - 1) / Int(tile.length)
            chunks = across * down * planes
            entries.append((322, long, [tile.width]))
            entries.append((323, long, [tile.length]))
            (offsetsTag, countsTag) = (324, 325)
        } else {
            let rows = shape.rowsPerStrip ?? shape.height
            let strips = rows >= shape.height ? 1 : (Int(shape.height) + Int(rows) - 1) / Int(rows)
            chunks = strips * planes
            entries.append((278, long, [rows]))
            (offsetsTag, countsTag) = (273, 279)
        }
        entries.append((offsetsTag, long, [UInt32](repeating: 0, count: chunks)))
        entries.append((countsTag, long, [UInt32](repeating: UInt32(shape.data.count), count: chunks)))
        entries.sort { $0.tag < $1.tag }

        func bytes(_ values: [UInt32], type: UInt16) -> [UInt8] {
            values.flatMap { v -> [UInt8] in
                type == 3 ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) }
            }
        }
        let ifdSize = 2 + 12 * entries.count + 4
        let outOfLineSize = entries.map { bytes($0.values, type: $0.type).count }.filter { $0 > 4 }.reduce(0) { $0 + $1 + $1 % 2 }
        let dataOffset = UInt32(8 + ifdSize + outOfLineSize)
        if let index = entries.firstIndex(where: { $0.tag == offsetsTag }) {
            entries[index].values = [UInt32](repeating: dataOffset, count: chunks)
        }
        var ifd = le16(UInt16(entries.count))
        var outOfLine: [UInt8] = []
        for entry in entries {
            let payload = bytes(entry.values, type: entry.type)
            ifd += le16(entry.tag) + le16(entry.type) + le32(UInt32(entry.values.count))
            if payload.count <= 4 {
                ifd += payload + [UInt8](repeating: 0, count: 4 - payload.count)
            } else {
                ifd += le32(UInt32(8 + ifdSize + outOfLine.count))
                outOfLine += payload + [UInt8](repeating: 0, count: payload.count % 2)
            }
        }
        ifd += le32(0)
        return [0x49, 0x49, 0x2A, 0x00] + le32(8) + ifd + outOfLine + shape.data
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
}
