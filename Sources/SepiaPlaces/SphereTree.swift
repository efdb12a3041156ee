import Foundation

/// A k-d tree of points on the unit sphere, for the nearest of them to a position.
///
/// Positions become unit vectors, so the straight-line (chord) distance between two of them grows with the
/// great-circle distance: the nearest by chord is the nearest on the globe, with no special case at the
/// antimeridian or the poles. The tree is implicit: the points are reordered so that each range's median is
/// its node, and a node's split axis is stored beside it.
struct SphereTree: Sendable {
    struct Point: Sendable {
        var x: Double
        var y: Double
        var z: Double

        init(latitude: Double, longitude: Double) {
            let phi = latitude * .pi / 180
            let lambda = longitude * .pi / 180
            let cosPhi = cos(phi)
            x = cosPhi * cos(lambda)
            y = cosPhi * sin(lambda)
            z = sin(phi)
        }

        subscript(axis: UInt8) -> Double {
            switch axis {
            case 0: x
            case 1: y
            default: z
            }
        }

        func squaredDistance(to other: Point) -> Double {
            let dx = x - other.x
            let dy = y - other.y
            let dz = z - other.z
            return dx * dx + dy * dy + dz * dz
        }
    }

    /// The points in tree order.
    private var points: [Point]
    /// The split axis of the node at each position.
    private var axes: [UInt8]
    /// The caller's index of the point at each position.
    private var items: [Int32]

    /// The mean radius of the Earth, in metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// A tree of `points`; a nearest-point answer is an index into this array.
    init(_ points: [Point]) {
        precondition(points.count < Int(Int32.max))
        var order = Array(0..<Int32(points.count))
        var axes = [UInt8](repeating: 0, count: points.count)
        Self.build(&order, &axes, points, 0..<points.count)
        self.points = order.map { points[Int($0)] }
        self.axes = axes
        self.items = order
    }

    private static func build(_ order: inout [Int32], _ axes: inout [UInt8], _ points: [Point], _ range: Range<Int>) {
        guard range.count > 1 else { return }
        // Split on the axis along which the range spreads widest.
        var low = (Double.infinity, Double.infinity, Double.infinity)
        var high = (-Double.infinity, -Double.infinity, -Double.infinity)
        for index in range {
            let p = points[Int(order[index])]
            low = (min(low.0, p.x), min(low.1, p.y), min(low.2, p.z))
            high = (max(high.0, p.x), max(high.1, p.y), max(high.2, p.z))
        }
        let spread = (high.0 - low.0, high.1 - low.1, high.2 - low.2)
        let axis: UInt8 = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : (spread.1 >= spread.2 ? 1 : 2)
        let middle = (range.lowerBound + range.upperBound) / 2
        select(&order, points, axis: axis, range: range, nth: middle)
        axes[middle] = axis
        build(&order, &axes, points, range.lowerBound..<middle)
        build(&order, &axes, points, (middle + 1)..<range.upperBound)
    }

    /// Reorders `range` so that position `nth` holds the point that sorting by `axis` would put there, with no
    /// greater point before it and no smaller one after (Hoare's selection).
    private static func select(_ order: inout [Int32], _ points: [Point], axis: UInt8, range: Range<Int>, nth: Int) {
        var low = range.lowerBound
        var high = range.upperBound - 1
        while low < high {
            let pivot = points[Int(order[(low + high) / 2])][axis]
            var i = low
            var j = high
            while i <= j {
                while points[Int(order[i])][axis] < pivot { i += 1 }
                while points[Int(order[j])][axis] > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if nth <= j {
                high = j
            } else if nth >= i {
                low = i
            } else {
                return
            }
        }
    }

    /// The index of the point nearest `target`, and its great-circle distance in metres; nil for an empty tree.
    func nearest(to target: Point) -> (index: Int, metres: Double)? {
        guard !points.isEmpty else { return nil }
        var best = (position: 0, squared: Double.infinity)
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                Self.search(points, axes, target, 0, points.count, &best)
            }
        }
        let chord = best.squared.squareRoot()
        return (Int(items[best.position]), 2 * asin(min(1, chord / 2)) * Self.earthRadius)
    }

    private static func search(
        _ points: UnsafeBufferPointer<Point>, _ axes: UnsafeBufferPointer<UInt8>, _ target: Point, _ low: Int, _ high: Int,
        _ best: inout (position: Int, squared: Double)
    ) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let node = points[middle]
        let squared = node.squaredDistance(to: target)
        if squared < best.squared { best = (middle, squared) }
        guard high - low > 1 else { return }
        let axis = axes[middle]
        let difference = target[axis] - node[axis]
        if difference < 0 {
            search(points, axes, target, low, middle, &best)
            if difference * difference < best.squared { search(points, axes, target, middle + 1, high, &best) }
        } else {
            search(points, axes, target, middle + 1, high, &best)
            if difference * difference < best.squared { search(points, axes, target, low, middle, &best) }
        }
    }
}
