internal import CZlib

/// zlib decompression with an output limit, for compressed metadata (PNG iCCP): a small chunk must not be
/// able to expand into gigabytes.
enum Inflate {
    /// Decompresses a zlib stream; nil when it is corrupt or would exceed `limit` bytes.
    static func zlib(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if produced > 0 {
                    if output.count + produced > limit { return nil }
                    output.append(contentsOf: chunk[0..<produced])
                }
                if status == Z_STREAM_END { return output }
                if status != Z_OK { return nil }
                if produced == 0 && stream.avail_in == 0 { return nil }
            }
        }
    }
}
