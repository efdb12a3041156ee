/// A ring of `capacity` rows of `width` pixels: row `j` lives in slot `j mod capacity`.
final class RowRing {
    let capacity: Int
    private let width: Int
    private let base: UnsafeMutablePointer<SIMD4<Float>>

    init(capacity: Int, width: Int) {
        self.capacity = capacity
        self.width = max(1, width)
        base = .allocate(capacity: capacity * self.width)
    }

    deinit {
        base.deallocate()
    }

    /// The slot of row `j`.
    @inline(__always)
    static func slot(_ j: Int, _ capacity: Int) -> Int {
        let m = j % capacity
        return m < 0 ? m + capacity : m
    }

    /// Row `j`'s pixels.
    @inline(__always)
    func row(_ j: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        base + Self.slot(j, capacity) * width
    }
}
