/// A rectangle of the map, in degrees. `west` greater than `east` crosses the antimeridian.
public struct MapRegion: Sendable, Hashable {
    /// The southern edge's latitude.
    public var south: Double
    /// The western edge's longitude.
    public var west: Double
    /// The northern edge's latitude.
    public var north: Double
    /// The eastern edge's longitude.
    public var east: Double

    /// The region; latitudes are clamped to ±90 and longitudes wrapped into ±180.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = max(-90, min(90, min(south, north)))
        self.north = max(-90, min(90, max(south, north)))
        let wrap = { (longitude: Double) in longitude.isFinite ? (longitude + 540).truncatingRemainder(dividingBy: 360) - 180 : 0 }
        // A region 360° wide or more is the whole world, whatever its edges.
        if east - west >= 360 {
            self.west = -180
            self.east = 180
        } else {
            self.west = wrap(west)
            self.east = wrap(east)
        }
    }

    /// The whole world.
    public static let world = MapRegion(south: -90, west: -180, north: 90, east: 180)
}

/// What the map shows of a region: located photos one by one when there are few, else counted in cells.
public struct MapMarkers: Sendable, Hashable, Codable {
    /// One located photo or video.
    public struct Item: Sendable, Hashable, Codable {
        /// The asset's identifier.
        public var id: String
        /// Its latitude.
        public var latitude: Double
        /// Its longitude.
        public var longitude: Double
    }

    /// Several located assets of one cell, at their mean position.
    public struct Cluster: Sendable, Hashable, Codable {
        /// Their mean latitude.
        public var latitude: Double
        /// Their mean longitude.
        public var longitude: Double
        /// How many there are.
        public var count: Int
        /// One of them, to show.
        public var keyAssetID: String
    }

    /// The assets, when the region holds at most the item limit.
    public var items: [Item]
    /// The cells, when it holds more.
    public var clusters: [Cluster]
    /// The located assets in the region.
    public var total: Int
}
