/// One entry of the library's change log: an asset, album or person inserted, updated or deleted by a commit of
/// any process, or an asset moved to Recently Deleted or recovered from it. The log is what observers and the
/// server's change stream read; its generations only grow.
public struct LibraryChange: Sendable, Hashable, Codable {
    /// What kind of object changed.
    public enum Entity: String, Sendable, Hashable, Codable {
        /// An asset.
        case asset
        /// A user album (its title, members or their order).
        case album
        /// A person of the People view (their name, faces, key face or hidden flag): made by the grouping or the
        /// user, changed, merged into another, or gone with their last face.
        case person
    }

    /// What happened to it.
    public enum Operation: String, Sendable, Hashable, Codable {
        /// It was created.
        case insert
        /// It changed.
        case update
        /// It was deleted for good.
        case delete
        /// The asset moved to Recently Deleted: it left every fetch but that smart album's (observers of other
        /// fetches see it removed).
        case trash
        /// The asset came back from Recently Deleted, into its albums (observers see it inserted).
        case recover
    }

    /// The change-log generation of this entry.
    public var generation: Int64
    /// Asset, album or person.
    public var entity: Entity
    /// The object's identifier.
    public var id: String
    /// Insert, update, delete, trash or recover.
    public var operation: Operation

    /// An entry.
    public init(generation: Int64, entity: Entity, id: String, operation: Operation) {
        self.generation = generation
        self.entity = entity
        self.id = id
        self.operation = operation
    }
}
