import Foundation

/// Blocks of one node's output on a fixed grid, kept across the pieces of one render and shared by its workers,
/// for a node whose input region for a thin request is far larger than the request: a rotation asked for a
/// few rows at a time (by a blur after it) would otherwise read a bounding box hundreds of rows tall for each
/// band. A block is rendered once, by the first worker that needs it, and read by every request it covers until
/// it is the least recently used one and room is needed.
///
/// A block holds the pixels the node renders for its rectangle, which do not depend on the rectangle asked for,
/// so a render served from blocks is the same as one that is not.
final class RenderedBlocks: @unchecked Sendable {
    /// The size of a block.
    let blockSize: IntSize
    /// The rectangle the blocks tile (the node's extent): blocks start at its corner and are clipped to it.
    let bounds: IntRect
    /// The most blocks kept: set from ``budgetBytes`` until the render graph shares its budget out
    /// (``limit(toBytes:)``), before the render starts.
    private(set) var capacity: Int

    /// The memory the blocks of one render may take, shared among the nodes that keep blocks: some 380 blocks of
    /// 128×64, four rows of blocks across an image 12 000 pixels wide, enough for a tile and the reach of the
    /// blurs after a rotation. Shared, so that a recipe of many rotations (each followed by a blur) keeps no more
    /// than one rotation would, beyond the few blocks each needs to make progress.
    static let renderBudget = 48 << 20

    /// The fewest blocks kept, whatever the budget: enough for a request to make progress.
    static let minimumCapacity = 4

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var blocks: [SIMD2<Int>: Block] = [:]
    private var clock = 0

    private final class Block {
        let rect: IntRect
        let storage: TileStorage
        var isReady = false
        /// Requests reading the block now: it is not let go while any does.
        var readers = 0
        var lastUse = 0

        init(rect: IntRect) {
            self.rect = rect
            storage = TileStorage(capacity: rect.area)
        }

        var view: TileView { TileView(rect: rect, base: storage.base, stride: rect.width) }
    }

    /// Blocks of `blockSize` over `bounds`, at most `budgetBytes` of them.
    init(blockSize: IntSize, bounds: IntRect, budgetBytes: Int = RenderedBlocks.renderBudget) {
        self.blockSize = blockSize
        self.bounds = bounds
        capacity = Self.capacity(of: budgetBytes, blockSize: blockSize)
    }

    /// Keeps at most `bytes` of blocks (and at least ``minimumCapacity`` blocks); called before the render starts.
    func limit(toBytes bytes: Int) {
        capacity = Self.capacity(of: bytes, blockSize: blockSize)
    }

    /// The bytes the blocks kept may take at most.
    var capacityBytes: Int { capacity * blockSize.width * blockSize.height * MemoryLayout<SIMD4<Float>>.stride }

    private static func capacity(of bytes: Int, blockSize: IntSize) -> Int {
        max(minimumCapacity, bytes / max(1, blockSize.width * blockSize.height * MemoryLayout<SIMD4<Float>>.stride))
    }

    /// The block rectangles that cover `rect` (inside ``bounds``).
    func blockRects(covering rect: IntRect) -> [IntRect] {
        let inside = rect.intersection(bounds)
        if inside.isEmpty { return [] }
        let (first, last) = (index(of: inside.minX, inside.minY), index(of: inside.maxX - 1, inside.maxY - 1))
        var rects: [IntRect] = []
        for j in first.y...last.y {
            for i in first.x...last.x { rects.append(blockRect(at: SIMD2(i, j))) }
        }
        return rects
    }

    /// Fills `view` (inside ``bounds``) from the blocks that cover it, rendering those not kept with `render`.
    func fill(_ view: TileView, render: (TileView) throws -> Void) throws {
        let first = index(of: view.rect.minX, view.rect.minY)
        let last = index(of: view.rect.maxX - 1, view.rect.maxY - 1)
        for j in first.y...last.y {
            for i in first.x...last.x {
                let block = try claim(SIMD2(i, j), render: render)
                view.copy(from: block.view)
                condition.lock()
                block.readers -= 1
                condition.unlock()
            }
        }
    }

    private func index(of x: Int, _ y: Int) -> SIMD2<Int> {
        SIMD2(BlurPlan.floorDiv(x - bounds.minX, blockSize.width), BlurPlan.floorDiv(y - bounds.minY, blockSize.height))
    }

    private func blockRect(at index: SIMD2<Int>) -> IntRect {
        IntRect(
            x: bounds.minX + index.x * blockSize.width, y: bounds.minY + index.y * blockSize.height, width: blockSize.width,
            height: blockSize.height
        ).intersection(bounds)
    }

    /// The block at `index`, rendered and counted as read; the caller gives the read back.
    private func claim(_ index: SIMD2<Int>, render: (TileView) throws -> Void) throws -> Block {
        condition.lock()
        while true {
            clock += 1
            if let block = blocks[index] {
                if block.isReady {
                    block.readers += 1
                    block.lastUse = clock
                    condition.unlock()
                    return block
                }
                // Another worker renders it.
                condition.wait()
                continue
            }
            makeRoom()
            let block = Block(rect: blockRect(at: index))
            block.readers = 1
            block.lastUse = clock
            blocks[index] = block
            condition.unlock()
            do {
                try render(block.view)
            } catch {
                condition.lock()
                blocks[index] = nil
                condition.broadcast()
                condition.unlock()
                throw error
            }
            condition.lock()
            block.isReady = true
            condition.broadcast()
            condition.unlock()
            return block
        }
    }

    /// Lets go of the least recently used blocks nobody reads until there is room for one more. Called with the
    /// lock held; when every block is being read or rendered, the cache grows past its capacity for a while.
    private func makeRoom() {
        while blocks.count >= capacity {
            guard let oldest = blocks.filter({ $0.value.isReady && $0.value.readers == 0 }).min(by: { $0.value.lastUse < $1.value.lastUse })
            else { return }
            blocks[oldest.key] = nil
        }
    }
}
