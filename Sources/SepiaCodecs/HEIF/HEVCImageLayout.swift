import SepiaImage

/// Where the coded HEVC data of a HEIF file's image lies (the primary image, or a thumbnail), for decoding it
/// straight through libde265: a grid of tiles (as phones write 12 MP photos: 48 tiles of 512×512) or a single
/// coded image (a grid of one).
///
/// Only the common case is described: 8-bit 4:2:0 HEVC, no alpha, and at most a rotation (`irot`) on the
/// image. Anything else (a crop, a mirror, transforms on tiles, other chroma formats or depths, a colour
/// matrix derived from primaries) makes ``init(items:image:)`` return `nil`, and libheif decodes the image.
struct HEVCImageLayout: Sendable {
    /// One coded image: its parameter sets (from `hvcC`) and the extents of its NAL units in the file.
    struct Tile: Sendable {
        /// VPS, SPS and PPS NAL units, without length prefixes.
        let parameterSets: [[UInt8]]
        /// The item's data: NAL units, each after a big-endian length of `lengthSize` bytes.
        let extents: [HEIFItems.Extent]
        let lengthSize: Int
        /// The matrix and range from the item's `colr` nclx box; `nil` when the bitstream's own apply.
        let matrix: YCbCrMatrix?
    }

    let tiles: [Tile]
    let rows: Int
    let columns: Int
    /// The size of each tile.
    let tileSize: IntSize
    /// The image before rotation: the grid's output size, which crops the right and bottom tiles.
    let stored: IntSize
    /// Quarter turns anticlockwise (`irot`), 0 to 3.
    let quarterTurns: Int

    /// The image after rotation.
    var displayed: IntSize {
        quarterTurns % 2 == 0 ? stored : IntSize(width: stored.height, height: stored.width)
    }

    /// Reads the layout of the image `image` of a parsed file; `nil` unless it is the common case described above.
    init?(items: HEIFItems, image: UInt32) {
        guard let type = items.types[image] else { return nil }
        var quarterTurns = 0
        for property in items.properties[image] ?? [] {
            switch property.type {
            case "irot":
                guard let angle = property.payload.first else { return nil }
                quarterTurns = (quarterTurns + Int(angle & 3)) % 4
            case "imir", "clap", "auxC":
                return nil
            default:
                break
            }
        }
        // An alpha plane is an auxiliary image that references the image.
        for refs in items.references.values where refs["auxl"]?.contains(image) == true { return nil }

        let tileIDs: [UInt32]
        if type == "grid" {
            guard let descriptor = items.data(of: image), descriptor.count >= 8, descriptor[0] == 0 else { return nil }
            rows = Int(descriptor[2]) + 1
            columns = Int(descriptor[3]) + 1
            var r = BoxReader(UnsafeRawBufferPointer(start: nil, count: 0)[...])
            let size: IntSize? = descriptor.withUnsafeBytes { raw in
                r = BoxReader(raw[4...])
                let wide = descriptor[1] & 1 != 0
                guard let w = wide ? r.u32() : r.u16().map(UInt32.init), let h = wide ? r.u32() : r.u16().map(UInt32.init) else { return nil }
                return IntSize(width: Int(w), height: Int(h))
            }
            guard let size else { return nil }
            stored = size
            tileIDs = items.references[image]?["dimg"] ?? []
            guard tileIDs.count == rows * columns else { return nil }
        } else if type == "hvc1" {
            rows = 1
            columns = 1
            tileIDs = [image]
            guard let ispe = Self.ispe(items, image) else { return nil }
            stored = ispe
        } else {
            return nil
        }
        guard stored.width > 0, stored.height > 0 else { return nil }

        var tiles: [Tile] = []
        var tileSize: IntSize?
        for id in tileIDs {
            guard items.types[id] == "hvc1", let size = Self.ispe(items, id), size == (tileSize ?? size),
                let config = items.property("hvcC", of: id), let tile = Self.tile(items, id, config: config)
            else { return nil }
            if id != image {
                for property in items.properties[id] ?? [] where ["irot", "imir", "clap"].contains(property.type) { return nil }
            }
            tileSize = size
            tiles.append(tile)
        }
        guard let tileSize, tileSize.width % 2 == 0 || columns == 1, tileSize.height % 2 == 0 || rows == 1,
            tileSize.width <= 16384, tileSize.height <= 16384,
            columns * tileSize.width >= stored.width, (columns - 1) * tileSize.width < stored.width,
            rows * tileSize.height >= stored.height, (rows - 1) * tileSize.height < stored.height
        else { return nil }
        self.tiles = tiles
        self.tileSize = tileSize
        self.quarterTurns = quarterTurns
    }

    private static func ispe(_ items: HEIFItems, _ id: UInt32) -> IntSize? {
        guard let property = items.property("ispe", of: id) else { return nil }
        var r = BoxReader(property.payload)
        guard r.skip(4), let w = r.u32(), let h = r.u32(), w > 0, h > 0, w <= 1 << 20, h <= 1 << 20 else { return nil }
        return IntSize(width: Int(w), height: Int(h))
    }

    private static func tile(_ items: HEIFItems, _ id: UInt32, config: HEIFItems.Property) -> Tile? {
        guard let (inIdat, extents) = items.extents[id], !inIdat, !extents.isEmpty else { return nil }
        guard let configuration = HEVCDecoderConfiguration(config.payload), configuration.chromaFormat == 1,
            configuration.lumaBitDepth == 8, configuration.chromaBitDepth == 8
        else { return nil }
        var matrix: YCbCrMatrix?
        if let colr = items.properties[id]?.first(where: { $0.type == "colr" && $0.payload.prefix(4).elementsEqual("nclx".utf8) }) {
            var c = BoxReader(colr.payload)
            guard c.skip(4), let primaries = c.u16(), c.skip(2), let coefficients = c.u16(), let range = c.u8(),
                let known = YCbCrMatrix(coefficients: Int(coefficients), primaries: Int(primaries), fullRange: range & 0x80 != 0)
            else { return nil }
            matrix = known
        }
        return Tile(parameterSets: configuration.parameterSets, extents: extents, lengthSize: configuration.lengthSize, matrix: matrix)
    }
}

/// How Y′CbCr maps to R′G′B′, as libheif 1.15 converts it: the matrix coefficients of ITU-T H.273 (Kr and Kb
/// from a table; 0 is GBR, 8 YCgCo) and the range. Coefficients that are derived from the colour primaries
/// (12 and 13) are not described here.
struct YCbCrMatrix: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case identity
        case yCgCo
        case matrix(rCr: Float, gCb: Float, gCr: Float, bCb: Float)
    }

    let kind: Kind
    let fullRange: Bool

    init?(coefficients: Int, primaries: Int, fullRange: Bool) {
        self.fullRange = fullRange
        let kr: Float
        let kb: Float
        switch coefficients {
        case 0:
            kind = .identity
            return
        case 8:
            kind = .yCgCo
            return
        case 12, 13:
            return nil
        case 1: (kr, kb) = (0.2126, 0.0722)
        case 4: (kr, kb) = (0.30, 0.11)
        case 5, 6: (kr, kb) = (0.299, 0.114)
        case 7: (kr, kb) = (0.212, 0.087)
        case 9, 10: (kr, kb) = (0.2627, 0.0593)
        default:
            // Unspecified and reserved values: libheif's defaults (BT.601).
            kind = .matrix(rCr: 1.402, gCb: -0.344136, gCr: -0.714136, bCb: 1.772)
            return
        }
        kind = .matrix(rCr: 2 * (1 - kr), gCb: 2 * kb * (1 - kb) / (kb + kr - 1), gCr: 2 * kr * (1 - kr) / (kb + kr - 1), bCb: 2 * (1 - kb))
    }
}
