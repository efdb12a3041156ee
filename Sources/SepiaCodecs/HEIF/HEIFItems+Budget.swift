import SepiaImage

extension HEIFItems {
    /// Reserves in `budget` what decoding the primary image makes libheif or libde265 allocate beyond the image
    /// itself, as the file declares it: one coded picture at a time (a grid's tiles are each decoded whole, then
    /// copied into the grid; a stored thumbnail is decoded instead of the primary image), and each auxiliary
    /// image of the primary (its alpha plane, a depth map), at `bytesPerSample` (1, or 2 past 8 bits) in three
    /// planes at most. A coded picture's size is the larger of what its `ispe` property and its HEVC sequence
    /// parameter sets declare: libde265 allocates the picture the bitstream describes, whatever the container
    /// says.
    func reserveDecodeBuffers(in budget: inout DecodeBudget, bytesPerSample: Int) throws(CodecError) {
        var scanned = ScannedPictures()
        func picture(_ item: UInt32, planes: Int, as what: String) -> DecodedPicture? {
            decodedPicture(of: item, planes: planes, bytesPerSample: bytesPerSample, as: what, scanned: &scanned)
        }
        var pictures: [DecodedPicture] = []
        if types[primary] == "grid", let tiles = references[primary]?["dimg"] {
            pictures += Set(tiles).compactMap { picture($0, planes: 3, as: "grid tiles") }
        } else if let primaryPicture = picture(primary, planes: 0, as: "the image") {
            pictures.append(primaryPicture)
        }
        for (item, kinds) in references where kinds["thmb"]?.contains(primary) == true {
            if let thumbnail = picture(item, planes: 0, as: "a stored thumbnail") { pictures.append(thumbnail) }
        }
        if let largest = pictures.max(by: { $0.bytes < $1.bytes }), largest.bytes > 0 {
            try budget.reserve(largest.bytes, for: largest.description)
        }
        for (item, kinds) in references where kinds["auxl"]?.contains(primary) == true {
            if let auxiliary = picture(item, planes: 1, as: "an auxiliary image (alpha or depth)") {
                try budget.reserve(auxiliary.bytes, for: auxiliary.description)
            }
        }
    }

    /// What decoding one coded image allocates, and words for it that finish "the file declares …".
    struct DecodedPicture {
        let bytes: UInt64
        let description: String
    }

    /// The decoder configurations and item data already read, so that grid tiles sharing them are read once:
    /// the NAL length size and largest sequence parameter set of each `hvcC` property by where it lies, and the
    /// largest sequence parameter set of each item data by its extents.
    struct ScannedPictures {
        var configurations: [[Int]: (lengthSize: Int, largest: HEVCSequenceParameterSet?)] = [:]
        var largest: [[Int]: HEVCSequenceParameterSet?] = [:]
    }

    /// The larger of what `item`'s `ispe` declares (`planes` planes of `bytesPerSample`; 0 reserves nothing for
    /// it, when the budget's own frame covers it) and the largest picture its sequence parameter sets declare.
    func decodedPicture(
        of item: UInt32, planes: Int, bytesPerSample: Int, as what: String, scanned: inout ScannedPictures
    ) -> DecodedPicture? {
        let declared = declaredSize(of: item)
        let coded = largestSequenceParameterSet(of: item, scanned: &scanned)
        let fromProperty = declared.map { UInt64($0.width) * UInt64($0.height) * UInt64(planes) * UInt64(bytesPerSample) } ?? 0
        if let coded, coded.pictureBytes > fromProperty {
            let container = declared.map { " for \(what) of \($0.width)x\($0.height)" } ?? " for \(what)"
            return DecodedPicture(
                bytes: coded.pictureBytes,
                description: "an HEVC picture of \(coded.width)x\(coded.height) pixels in its sequence parameter set\(container)")
        }
        guard let declared, fromProperty > 0 else { return nil }
        return DecodedPicture(bytes: fromProperty, description: "\(what) of \(declared.width)x\(declared.height) pixels")
    }

    /// The width and height an item's `ispe` property declares.
    func declaredSize(of item: UInt32) -> IntSize? {
        guard let property = property("ispe", of: item) else { return nil }
        var reader = BoxReader(property.payload)
        guard reader.skip(4), let width = reader.u32(), let height = reader.u32() else { return nil }
        return IntSize(width: Int(width), height: Int(height))
    }

    /// The sequence parameter set declaring the largest picture among those libde265 reads for `item`: those of
    /// its `hvcC`, and those among the NAL units of its data (which it reads after them); `nil` for an item that
    /// is not HEVC. Of the data's NAL units, only the headers and the sequence parameter sets are read.
    func largestSequenceParameterSet(of item: UInt32, scanned: inout ScannedPictures) -> HEVCSequenceParameterSet? {
        guard let property = property("hvcC", of: item) else { return nil }
        func larger(_ a: HEVCSequenceParameterSet?, _ b: HEVCSequenceParameterSet?) -> HEVCSequenceParameterSet? {
            guard let a else { return b }
            guard let b else { return a }
            return b.pictureBytes > a.pictureBytes ? b : a
        }
        // Tiles share one `hvcC` property as a rule; each is read once.
        let propertyKey = [-1, property.payload.startIndex, property.payload.count]
        let read =
            scanned.configurations[propertyKey]
            ?? HEVCDecoderConfiguration(property.payload).map { ($0.lengthSize, $0.largestSequenceParameterSet) }
        guard let (lengthSize, configured) = read else { return nil }
        scanned.configurations[propertyKey] = read
        guard let (inIdat, list) = extents[item] else { return configured }
        let key = [inIdat ? 1 : 0, lengthSize] + list.flatMap { [$0.offset, $0.length] }
        if let known = scanned.largest[key] { return larger(configured, known) }
        func scan(_ data: UnsafeRawBufferPointer) -> HEVCSequenceParameterSet? {
            var found: HEVCSequenceParameterSet?
            var at = 0
            while data.count - at >= lengthSize {
                var length = 0
                for i in 0..<lengthSize { length = length << 8 | Int(data[at + i]) }
                at += lengthSize
                guard length > 0, length <= data.count - at else { break }
                if (data[at] >> 1) & 0x3F == HEVCSequenceParameterSet.nalUnitType {
                    found = larger(found, HEVCSequenceParameterSet(nal: UnsafeRawBufferPointer(rebasing: data[at..<(at + length)])))
                }
                at += length
            }
            return found
        }
        let inBand: HEVCSequenceParameterSet?
        if !inIdat, list.count == 1, let extent = list.first, extent.offset >= 0, extent.length >= 0,
            extent.offset <= file.count, extent.length <= file.count - extent.offset
        {
            inBand = scan(UnsafeRawBufferPointer(rebasing: file[extent.offset..<(extent.offset + extent.length)]))
        } else {
            inBand = data(of: item)?.withUnsafeBytes { scan($0) }
        }
        scanned.largest[key] = .some(inBand)
        return larger(configured, inBand)
    }
}
