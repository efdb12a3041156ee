/// Working-space pixels for one tile: a run of `SIMD4<Float>` owned by a worker and reused from tile to tile.
///
/// Sendable: a storage object belongs to one worker's scratch at a time and is never shared while written.
final class TileStorage: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<SIMD4<Float>>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: self.capacity)
    }

    /// Makes room for `count` pixels; the contents are not preserved.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = max(count, capacity + capacity / 2)
        base = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }
}

/// A window onto working-space pixels covering `rect`: row `y` starts at `base + (y - rect.minY) * stride`
/// and holds the pixels `rect.minX..<rect.maxX`.
struct TileView {
    let rect: IntRect
    let base: UnsafeMutablePointer<SIMD4<Float>>
    let stride: Int

    /// The first pixel (at `rect.minX`) of row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        base + (y - rect.minY) * stride
    }

    /// The pixel at absolute (`x`, `y`).
    @inline(__always)
    func pointer(x: Int, y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        base + (y - rect.minY) * stride + (x - rect.minX)
    }

    /// The part of this view covering `inner`, which must lie inside ``rect``.
    func subview(_ inner: IntRect) -> TileView {
        precondition(rect.contains(inner), "subview \(inner) outside \(rect)")
        return TileView(rect: inner, base: pointer(x: inner.minX, y: inner.minY), stride: stride)
    }

    /// The same memory labelled with coordinates moved by (`dx`, `dy`).
    func relabeled(dx: Int, dy: Int) -> TileView {
        TileView(rect: IntRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height), base: base, stride: stride)
    }

    /// Sets every pixel to `value`.
    func fill(_ value: SIMD4<Float>) {
        guard !rect.isEmpty else { return }
        for y in rect.minY..<rect.maxY {
            row(y).update(repeating: value, count: rect.width)
        }
    }

    /// Sets every pixel outside `inner` to `value`.
    func fill(_ value: SIMD4<Float>, outside inner: IntRect) {
        let keep = inner.intersection(rect)
        if keep.isEmpty {
            fill(value)
            return
        }
        for y in rect.minY..<rect.maxY {
            let p = row(y)
            if y < keep.minY || y >= keep.maxY {
                p.update(repeating: value, count: rect.width)
            } else {
                let left = keep.minX - rect.minX
                let right = rect.maxX - keep.maxX
                if left > 0 { p.update(repeating: value, count: left) }
                if right > 0 { (p + (keep.maxX - rect.minX)).update(repeating: value, count: right) }
            }
        }
    }

    /// Copies the overlapping pixels of `source` into this view.
    func copy(from source: TileView) {
        let r = rect.intersection(source.rect)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            pointer(x: r.minX, y: y).update(from: source.pointer(x: r.minX, y: y), count: r.width)
        }
    }
}

/// Scratch memory of one worker for one render: numbered tile buffers that nodes reuse from tile to tile,
/// so that steady-state rendering allocates nothing.
final class WorkerScratch {
    private var storages: [TileStorage?]
    private var byteBuffers: [[UInt8]]
    /// Whether the render this scratch works for was cancelled or failed.
    private let shouldStop: @Sendable () -> Bool

    init(slots: Int, shouldStop: @escaping @Sendable () -> Bool = { false }) {
        storages = Array(repeating: nil, count: max(0, slots))
        byteBuffers = []
        self.shouldStop = shouldStop
    }

    /// Throws ``RenderError/cancelled`` when the render was cancelled (or failed elsewhere): nodes whose one
    /// request can take long (a blur's band after band) call it between pieces of work, so that a render stops
    /// within a band rather than a whole tile.
    func checkStopped() throws {
        if shouldStop() { throw RenderError.cancelled }
    }

    /// A view of `rect` backed by scratch buffer `slot`, valid until the slot is requested again.
    func view(slot: Int, rect: IntRect) -> TileView {
        let storage: TileStorage
        if let existing = storages[slot] {
            storage = existing
        } else {
            storage = TileStorage(capacity: rect.area)
            storages[slot] = storage
        }
        storage.reserve(rect.area)
        return TileView(rect: rect, base: storage.base, stride: max(1, rect.width))
    }
}
