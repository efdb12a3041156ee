/// An object a ``FetchResult`` can hold: ``Asset`` or ``Album``. Objects are immutable snapshots identified by
/// a stable string identifier (PhotoKit's `localIdentifier`).
public protocol LibraryObject: Sendable, Identifiable, Hashable where ID == String {}
