/// How far two decodes of the same pixels are apart, byte by byte: the largest difference and the mean one.
/// One pass over both buffers with no intermediate array, so that comparing two 12-megapixel decodes costs
/// about as much as reading them, also in an unoptimised or sanitized build.
struct ByteDifference {
    /// The largest absolute difference of two bytes at the same position.
    var largest = 0
    /// The mean absolute difference over every position.
    var mean = 0.0

    /// The difference of `a` and `b`, which have the same length.
    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count, "the decodes differ in length: \(a.count) and \(b.count)")
        var total = 0
        var largest = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                guard var p = a.baseAddress, var q = b.baseAddress else { return }
                let end = p + a.count
                while p < end {
                    let d = abs(Int(p.pointee) - Int(q.pointee))
                    total &+= d
                    if d > largest { largest = d }
                    p += 1
                    q += 1
                }
            }
        }
        self.largest = largest
        mean = Double(total) / Double(max(1, a.count))
    }

    /// The mean absolute difference of bytes `a` and values `b` (a block average), which have the same length.
    static func mean(_ a: [UInt8], _ b: [Double]) -> Double {
        precondition(a.count == b.count, "the decodes differ in length: \(a.count) and \(b.count)")
        var total = 0.0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                guard var p = a.baseAddress, var q = b.baseAddress else { return }
                let end = p + a.count
                while p < end {
                    total += abs(Double(p.pointee) - q.pointee)
                    p += 1
                    q += 1
                }
            }
        }
        return total / Double(max(1, a.count))
    }
}
