/// What an HEVC sequence parameter set (SPS, ITU-T H.265 7.3.2.2) declares of the pictures it codes: their size
/// in luma samples, chroma format and bit depths. libde265 allocates each decoded picture from these, whatever
/// the HEIF container's `ispe` says, so they are what a decode of the coded image costs.
struct HEVCSequenceParameterSet: Equatable {
    /// The NAL unit type of a sequence parameter set.
    static let nalUnitType: UInt8 = 33

    /// The coded picture's size in luma samples (`pic_width_in_luma_samples`, `pic_height_in_luma_samples`).
    let width: Int
    let height: Int
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    let chromaFormat: Int
    let lumaBitDepth: Int
    let chromaBitDepth: Int

    /// The bytes of a decoded picture's planes: luma, and two chroma planes subsampled as the format says, each
    /// sample in 1 byte up to 8 bits and 2 past.
    var pictureBytes: UInt64 {
        let luma = UInt64(width) * UInt64(height)
        let chroma: UInt64 =
            switch chromaFormat {
            case 0: 0
            case 1: 2 * (UInt64(width + 1) / 2) * (UInt64(height + 1) / 2)
            case 2: 2 * (UInt64(width + 1) / 2) * UInt64(height)
            default: 2 * luma
            }
        return luma * (lumaBitDepth > 8 ? 2 : 1) + chroma * (chromaBitDepth > 8 ? 2 : 1)
    }

    /// Reads the SPS NAL unit `nal` (its two-byte header first); `nil` if it is not an SPS or ends before the
    /// fields read.
    init?(nal: some Collection<UInt8>) {
        guard let first = nal.first, (first >> 1) & 0x3F == Self.nalUnitType else { return nil }
        var bits = RBSPBitReader(nal.dropFirst(2))
        // sps_video_parameter_set_id (4), sps_max_sub_layers_minus1 (3), sps_temporal_id_nesting_flag (1).
        guard bits.skip(4), let subLayers = bits.read(3), bits.skip(1),
            Self.skipProfileTierLevel(&bits, maxSubLayersMinus1: Int(subLayers)),
            bits.readExpGolomb() != nil,  // sps_seq_parameter_set_id
            let chroma = bits.readExpGolomb(), chroma <= 3,
            chroma != 3 || bits.skip(1),  // separate_colour_plane_flag
            let width = bits.readExpGolomb(), let height = bits.readExpGolomb(),
            let window = bits.read(1), window == 0 || (0..<4).allSatisfy({ _ in bits.readExpGolomb() != nil }),
            let lumaDepth = bits.readExpGolomb(), lumaDepth <= 8, let chromaDepth = bits.readExpGolomb(), chromaDepth <= 8
        else { return nil }
        self.width = Int(width)
        self.height = Int(height)
        chromaFormat = Int(chroma)
        lumaBitDepth = Int(lumaDepth) + 8
        chromaBitDepth = Int(chromaDepth) + 8
    }

    /// Skips `profile_tier_level(1, maxSubLayersMinus1)` (7.3.3).
    private static func skipProfileTierLevel(_ bits: inout RBSPBitReader, maxSubLayersMinus1: Int) -> Bool {
        // The general profile (2 + 1 + 5 + 32 + 4 + 43 + 1 bits) and general_level_idc (8).
        guard bits.skip(96) else { return false }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = bits.read(1), let level = bits.read(1) else { return false }
            profilePresent.append(profile == 1)
            levelPresent.append(level == 1)
        }
        if maxSubLayersMinus1 > 0 {
            guard bits.skip(2 * (8 - maxSubLayersMinus1)) else { return false }  // reserved_zero_2bits
        }
        for layer in 0..<maxSubLayersMinus1 {
            guard !profilePresent[layer] || bits.skip(88), !levelPresent[layer] || bits.skip(8) else { return false }
        }
        return true
    }
}
