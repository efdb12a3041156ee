/// Reads the bits of a NAL unit's payload (its raw byte sequence payload), dropping the emulation prevention
/// bytes (the 3 of `00 00 03`) as it goes.
struct RBSPBitReader {
    private let bytes: [UInt8]
    private var bit = 0

    /// Reads `payload`, the NAL unit after its header; at most the first 512 bytes, which hold every field read.
    init(_ payload: some Collection<UInt8>) {
        bytes = Self.unescaped(payload.prefix(512))
    }

    /// `payload` without its emulation prevention bytes.
    static func unescaped(_ payload: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            bytes.append(byte)
        }
        return bytes
    }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, bit + count <= bytes.count * 8 else { return false }
        bit += count
        return true
    }

    /// The next `count` bits (at most 32), most significant first.
    mutating func read(_ count: Int) -> UInt32? {
        guard count <= 32, bit + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            bit += 1
        }
        return value
    }

    /// An unsigned Exp-Golomb value (`ue(v)`); `nil` past the end or above 2³² − 2.
    mutating func readExpGolomb() -> UInt32? {
        var zeros = 0
        while true {
            guard let next = read(1) else { return nil }
            if next == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let suffix = read(zeros) else { return nil }
        return UInt32((UInt64(1) << zeros) - 1 + UInt64(suffix))
    }
}
