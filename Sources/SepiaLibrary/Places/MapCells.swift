/// The map's cells as the library keeps them: at each zoom up to ``maximumKeptZoom``, the visible located photos and
/// videos counted in a grid of cells ``degrees(zoom:)`` wide and high, with the sums of their positions, updated by
/// the database in the transaction of every change (the `mapCell` table and its triggers). A region seen at such
/// a zoom reads its cells instead of its rows when it holds more than ``liveRowLimit`` of them, so the world's
/// markers cost the same for a million photos as for a thousand.
enum MapCells {
    /// The highest zoom whose cells are kept (cells of 0.088°, about 10 km); closer views count their region's rows.
    static let maximumKeptZoom = 10

    /// Up to this many located assets in a region, its markers are counted from its rows, exactly within its
    /// edges (and listed one by one when few); past it, from the kept cells it touches.
    static let liveRowLimit = 20_000

    /// The side of a cell at `zoom`, in degrees: a quarter of a 256-pixel tile's width, about 64 pixels.
    static func degrees(zoom: Int) -> Double {
        90 / Double(1 << max(0, min(22, zoom)))
    }

    /// The cell holding a latitude or longitude shifted to be positive (latitude + 90, longitude + 180), as the
    /// databases compute it: truncation, which is the floor for positive values.
    static func index(_ shifted: Double, zoom: Int) -> Int {
        Int((shifted / degrees(zoom: zoom)).rounded(.down))
    }
}
