/// An HEVC image item's decoder configuration (its `hvcC` property, ISO/IEC 14496-15 8.3.3): the chroma format
/// and bit depths it announces, the size of the lengths before its NAL units, and its parameter sets.
struct HEVCDecoderConfiguration {
    /// `chromaFormat`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    let chromaFormat: Int
    let lumaBitDepth: Int
    let chromaBitDepth: Int
    /// The bytes of the big-endian length before each NAL unit of the item's data (1, 2 or 4).
    let lengthSize: Int
    /// The VPS, SPS and PPS NAL units (and any SEI), without length prefixes.
    let parameterSets: [[UInt8]]

    /// Reads an `hvcC` payload; `nil` if it ends early.
    init?(_ payload: Slice<UnsafeRawBufferPointer>) {
        var r = BoxReader(payload)
        // Chroma format in byte 16, bit depths in 17 and 18, NAL length size in 21, then the NAL arrays.
        guard r.skip(16), let chroma = r.u8(), let lumaDepth = r.u8(), let chromaDepth = r.u8(), r.skip(2),
            let lengthByte = r.u8(), let arrays = r.u8()
        else { return nil }
        var parameterSets: [[UInt8]] = []
        for _ in 0..<arrays {
            guard r.skip(1), let count = r.u16() else { return nil }
            for _ in 0..<count {
                guard let length = r.u16(), let nal = r.bytes(Int(length)) else { return nil }
                parameterSets.append(Array(nal))
            }
        }
        chromaFormat = Int(chroma & 3)
        lumaBitDepth = Int(lumaDepth & 7) + 8
        chromaBitDepth = Int(chromaDepth & 7) + 8
        lengthSize = Int(lengthByte & 3) + 1
        self.parameterSets = parameterSets
    }

    /// The sequence parameter set among ``parameterSets`` that declares the largest picture.
    var largestSequenceParameterSet: HEVCSequenceParameterSet? {
        parameterSets.lazy.compactMap { HEVCSequenceParameterSet(nal: $0) }.max { $0.pictureBytes < $1.pictureBytes }
    }
}
