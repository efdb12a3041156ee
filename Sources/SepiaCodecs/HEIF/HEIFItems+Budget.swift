import SepiaImage

extension HEIFItems {
    /// Reserves in `budget` what decoding the primary image makes libheif or libde265 allocate beyond the image
    /// itself, as the item properties declare it: one grid tile at a time (each tile is decoded whole, then
    /// copied into the grid), and each auxiliary image of the primary (its alpha plane, a depth map), at
    /// `bytesPerSample` (1, or 2 past 8 bits) in three planes at most.
    func reserveDecodeBuffers(in budget: inout DecodeBudget, bytesPerSample: Int) throws(CodecError) {
        if types[primary] == "grid", let tiles = references[primary]?["dimg"] {
            var largest: IntSize?
            for tile in Set(tiles) {
                guard let size = declaredSize(of: tile) else { continue }
                if let known = largest, known.width * known.height >= size.width * size.height { continue }
                largest = size
            }
            if let largest {
                try budget.reserve(
                    UInt64(largest.width) * UInt64(largest.height) * 3 * UInt64(bytesPerSample),
                    for: "grid tiles of \(largest.width)x\(largest.height) pixels")
            }
        }
        for (item, kinds) in references where kinds["auxl"]?.contains(primary) == true {
            guard let size = declaredSize(of: item) else { continue }
            try budget.reserve(
                UInt64(size.width) * UInt64(size.height) * UInt64(bytesPerSample),
                for: "an auxiliary image (alpha or depth) of \(size.width)x\(size.height) pixels")
        }
    }

    /// The width and height an item's `ispe` property declares.
    func declaredSize(of item: UInt32) -> IntSize? {
        guard let property = property("ispe", of: item) else { return nil }
        var reader = BoxReader(property.payload)
        guard reader.skip(4), let width = reader.u32(), let height = reader.u32() else { return nil }
        return IntSize(width: Int(width), height: Int(height))
    }
}
