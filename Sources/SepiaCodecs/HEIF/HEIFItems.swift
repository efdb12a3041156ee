/// The items of a HEIF file's `meta` box, read just far enough to find where an HEVC image's coded data lies:
/// the primary item, each item's type and extents (`iloc`), the references between items (`iref`), and the
/// properties associated with each item (`iprp`), in their listed order.
///
/// libheif reads the same boxes; this reader exists because libheif 1.15 hands out only RGB it converted
/// itself, and a grid's tiles only assembled into one frame. ``HEVCImageLayout`` uses it to decode the tiles
/// straight through libde265. Anything this reader does not understand makes it return `nil`, and the file is
/// decoded by libheif as before.
struct HEIFItems {
    /// A property box from `ipco`: its type and payload (after the box header).
    struct Property {
        let type: String
        let payload: Slice<UnsafeRawBufferPointer>
    }

    /// One extent of an item's data.
    struct Extent {
        let offset: Int
        let length: Int
    }

    let primary: UInt32
    private(set) var types: [UInt32: String] = [:]
    private(set) var extents: [UInt32: (inIdat: Bool, extents: [Extent])] = [:]
    private(set) var references: [UInt32: [String: [UInt32]]] = [:]
    private(set) var properties: [UInt32: [Property]] = [:]
    private var idat: Slice<UnsafeRawBufferPointer>?
    /// The whole file.
    let file: UnsafeRawBufferPointer

    /// Reads the `meta` box of the file in `file`; `nil` if the file or its boxes are not as expected.
    init?(file: UnsafeRawBufferPointer) {
        self.file = file
        guard let meta = BoxReader(file[...]).boxes().first(where: { $0.type == "meta" }) else { return nil }
        var reader = BoxReader(meta.payload)
        guard reader.skip(4) else { return nil }  // version and flags
        var primary: UInt32?
        var propertyBoxes: [Property] = []
        var associations: [UInt32: [Int]] = [:]
        for box in reader.boxes() {
            var r = BoxReader(box.payload)
            switch box.type {
            case "pitm":
                guard let version = r.u8(), r.skip(3) else { return nil }
                primary = version == 0 ? r.u16().map(UInt32.init) : r.u32()
            case "iinf":
                guard let version = r.u8(), r.skip(3), (version == 0 ? r.u16().map(UInt32.init) : r.u32()) != nil else { return nil }
                for entry in r.boxes() where entry.type == "infe" {
                    var e = BoxReader(entry.payload)
                    guard let v = e.u8(), v >= 2, e.skip(3), let id = v == 2 ? e.u16().map(UInt32.init) : e.u32(), e.skip(2),
                        let type = e.fourCC()
                    else { continue }
                    types[id] = type
                }
            case "iloc":
                guard let located = Self.locations(&r) else { return nil }
                extents = located
            case "iref":
                guard let version = r.u8(), r.skip(3) else { return nil }
                for reference in r.boxes() {
                    var e = BoxReader(reference.payload)
                    guard let from = version == 0 ? e.u16().map(UInt32.init) : e.u32(), let count = e.u16() else { return nil }
                    var to: [UInt32] = []
                    for _ in 0..<count {
                        guard let id = version == 0 ? e.u16().map(UInt32.init) : e.u32() else { return nil }
                        to.append(id)
                    }
                    references[from, default: [:]][reference.type, default: []] += to
                }
            case "iprp":
                for child in r.boxes() {
                    if child.type == "ipco" {
                        propertyBoxes = BoxReader(child.payload).boxes().map { Property(type: $0.type, payload: $0.payload) }
                    } else if child.type == "ipma" {
                        guard let listed = Self.associations(child.payload) else { return nil }
                        associations.merge(listed) { $0 + $1 }
                    }
                }
            case "idat":
                idat = box.payload
            default:
                break
            }
        }
        guard let primary else { return nil }
        self.primary = primary
        for (item, indices) in associations {
            // Index 0 means "no property"; the others count from 1.
            properties[item] = indices.compactMap { $0 >= 1 && $0 <= propertyBoxes.count ? propertyBoxes[$0 - 1] : nil }
        }
    }

    /// The bytes of an item, its extents joined; `nil` if an extent lies outside the file.
    func data(of item: UInt32) -> [UInt8]? {
        guard let (inIdat, list) = extents[item] else { return nil }
        let region: Slice<UnsafeRawBufferPointer>
        if inIdat {
            guard let idat else { return nil }
            region = idat
        } else {
            region = file[...]
        }
        var bytes: [UInt8] = []
        for extent in list {
            let start = region.startIndex + extent.offset
            guard extent.offset >= 0, extent.length >= 0, extent.length <= region.endIndex - start else { return nil }
            bytes += region[start..<(start + extent.length)]
        }
        return bytes
    }

    /// The first property of `type` associated with `item`.
    func property(_ type: String, of item: UInt32) -> Property? {
        properties[item]?.first { $0.type == type }
    }

    private static func locations(_ r: inout BoxReader) -> [UInt32: (inIdat: Bool, extents: [Extent])]? {
        guard let version = r.u8(), version <= 2, r.skip(3), let sizes = r.u8(), let sizes2 = r.u8() else { return nil }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 15)
        let baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version == 0 ? 0 : Int(sizes2 & 15)
        guard let count = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { return nil }
        var located: [UInt32: (inIdat: Bool, extents: [Extent])] = [:]
        for _ in 0..<count {
            guard let id = version < 2 ? r.u16().map(UInt32.init) : r.u32() else { return nil }
            var method = 0
            if version > 0 {
                guard let m = r.u16() else { return nil }
                method = Int(m & 15)
            }
            guard r.skip(2), let base = r.sized(baseOffsetSize), let extentCount = r.u16() else { return nil }
            var list: [Extent] = []
            for _ in 0..<extentCount {
                guard r.sized(indexSize) != nil, let offset = r.sized(offsetSize), let length = r.sized(lengthSize) else { return nil }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, start <= UInt64(Int.max), length <= UInt64(Int.max) else { return nil }
                list.append(Extent(offset: Int(start), length: Int(length)))
            }
            // Construction method 0 is the file, 1 the `idat` box; 2 (item references) is not read here.
            guard method <= 1 else { continue }
            located[id] = (method == 1, list)
        }
        return located
    }

    private static func associations(_ payload: Slice<UnsafeRawBufferPointer>) -> [UInt32: [Int]]? {
        var r = BoxReader(payload)
        guard let version = r.u8(), r.skip(2), let flags = r.u8(), let count = r.u32() else { return nil }
        var listed: [UInt32: [Int]] = [:]
        for _ in 0..<count {
            guard let item = version < 1 ? r.u16().map(UInt32.init) : r.u32(), let n = r.u8() else { return nil }
            var indices: [Int] = []
            for _ in 0..<n {
                if flags & 1 != 0 {
                    guard let v = r.u16() else { return nil }
                    indices.append(Int(v & 0x7FFF))
                } else {
                    guard let v = r.u8() else { return nil }
                    indices.append(Int(v & 0x7F))
                }
            }
            listed[item, default: []] += indices
        }
        return listed
    }
}

/// Reads big-endian fields and ISO BMFF boxes from a range of bytes, never past its end.
struct BoxReader {
    struct Box {
        let type: String
        let payload: Slice<UnsafeRawBufferPointer>
    }

    private let bytes: Slice<UnsafeRawBufferPointer>
    private(set) var position: Int

    init(_ bytes: Slice<UnsafeRawBufferPointer>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, n <= remaining else { return false }
        position += n
        return true
    }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func u32() -> UInt32? {
        guard let high = u16(), let low = u16() else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    mutating func u64() -> UInt64? {
        guard let high = u32(), let low = u32() else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// A field of 0, 4 or 8 bytes, as `iloc` declares them.
    mutating func sized(_ size: Int) -> UInt64? {
        switch size {
        case 0: return 0
        case 4: return u32().map(UInt64.init)
        case 8: return u64()
        default: return nil
        }
    }

    mutating func fourCC() -> String? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return String(decoding: bytes[position..<(position + 4)], as: Unicode.ASCII.self)
    }

    mutating func bytes(_ n: Int) -> Slice<UnsafeRawBufferPointer>? {
        guard n >= 0, n <= remaining else { return nil }
        defer { position += n }
        return bytes[position..<(position + n)]
    }

    /// The boxes from here to the end; stops at the first box that does not fit.
    func boxes() -> [Box] {
        var r = self
        return r.readBoxes()
    }

    private mutating func readBoxes() -> [Box] {
        var found: [Box] = []
        while remaining >= 8 {
            let start = position
            guard let size32 = u32(), let type = fourCC() else { break }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = u64() else { break }
                size = large
            } else if size32 == 0 {
                size = UInt64(bytes.endIndex - start)
            }
            let header = position - start
            guard size >= UInt64(header), size - UInt64(header) <= UInt64(remaining) else { break }
            let payload = bytes[position..<(position + Int(size) - header)]
            position += payload.count
            found.append(Box(type: type, payload: payload))
        }
        return found
    }
}
