import Foundation

/// People: the faces indexing finds, grouped into people, named and corrected by the user (DESIGN §12).
///
/// Indexing (a background job) asks for ``assetsNeedingFaceIndex(algorithm:after:limit:)``, detects faces in
/// each, and hands them over with ``recordFaces(_:for:algorithm:)``; the library keeps the faces and groups them
/// at once, incrementally (no full pass is needed). The user's decisions are facts that every later recording
/// and ``regroupFaces()`` obeys:
///
/// - two faces of one asset are never one person;
/// - a face the user took from a person (``rejectFace(_:)``, "Not this person") never joins that person again;
/// - a face the user assigned (``assignFace(_:toPersonNamed:)``) stays with its person, and a named person keeps
///   their name;
/// - a person is listed once they have ``FaceGroupingOptions/minimumFacesPerPerson`` faces (or a name);
/// - merging people and taking a face from one are single changes that return a ``PeopleUndo``.
///
/// ```swift
/// for asset in try library.assetsNeedingFaceIndex(algorithm: 1) {
///     let faces = try detector.faces(in: asset)            // [DetectedFace]
///     try library.recordFaces(faces, for: asset.id, algorithm: 1)
/// }
/// let people = try library.people()
/// let undo = try library.mergePeople([people[1].id], into: people[0].id)
/// try library.undo(undo)
/// ```
///
/// A person left without faces is deleted unless they have a name; an asset deleted for good takes its faces
/// with it. Changes to people are in the change log as ``LibraryChange/Entity/person`` entries.
extension PhotoLibrary {
    // MARK: - Indexing

    /// Records the faces indexing found in an asset and groups them. The faces replace those the asset had
    /// (found by an older algorithm, or before an edit): a new face whose box overlaps an old one's with an
    /// intersection over union of at least 0.5 takes its place, keeping its identifier and the user's decisions
    /// about it (its confirmed person, its "Not this person" facts); the old faces left over are deleted. The
    /// asset counts as indexed by `algorithm` afterwards, also when no face was found.
    ///
    /// - Parameters:
    ///   - faces: What the detector found; empty when it found none.
    ///   - assetID: The asset the faces are in.
    ///   - algorithm: The version of the indexing algorithm (detector, face prints and how they are used).
    /// - Returns: The asset's faces as stored and grouped, left to right.
    /// - Throws: ``LibraryError``: ``LibraryError/Code/invalidRequest`` for a face print that is not
    ///   ``DetectedFace/descriptorLength`` finite values (nothing is recorded); ``LibraryError/Code/notFound`` for
    ///   an unknown asset.
    /// - Complexity: Each face is compared with every person's centroid, the faces of the few people near it,
    ///   and the unassigned faces (see ``FaceGroupingOptions``).
    @discardableResult
    public func recordFaces(_ faces: [DetectedFace], for assetID: String, algorithm: Int) throws(LibraryError) -> [Face] {
        try recordFaces([assetID: faces], algorithm: algorithm)[assetID] ?? []
    }

    /// Records the faces of several assets in one transaction (see ``recordFaces(_:for:algorithm:)``), in the
    /// order of their identifiers: a job that indexes a batch of assets records them at once.
    /// - Returns: Each asset's faces.
    @discardableResult
    public func recordFaces(_ facesByAsset: [String: [DetectedFace]], algorithm: Int) throws(LibraryError) -> [String: [Face]] {
        guard !facesByAsset.isEmpty else { return [:] }
        let batch = facesByAsset.sorted { $0.key < $1.key }.map { (assetID: $0.key, faces: $0.value) }
        let recorded = try store.recordFaces(batch, algorithm: algorithm, grouping: configuration.faceGrouping, date: configuration.clock())
        noteChange()
        return recorded
    }

    /// Assets outside Recently Deleted that `algorithm` (or a newer version) has not indexed yet, in the order
    /// they were added: never indexed, indexed by an older version, or asked to be indexed again
    /// (``requestFaceIndexing(of:)``). Every kind of asset is listed (photos, Live Photos, RAW files, videos);
    /// indexing reads each through its media kind.
    /// - Parameters:
    ///   - after: The last asset of the previous batch, to go on after it (an asset that cannot be indexed is
    ///     then not asked for again in the same pass); nil to start from the first.
    ///   - limit: The most assets to return (at least 1).
    public func assetsNeedingFaceIndex(algorithm: Int, after: Asset? = nil, limit: Int = 100) throws(LibraryError) -> [Asset] {
        try store.assetsNeedingFaceIndex(algorithm: algorithm, afterRowID: after?.rowID ?? 0, limit: max(1, limit))
    }

    /// Makes indexing find these assets again (after an edit that crops or rotates, or a new still for a Live
    /// Photo); their faces and everything decided about them stay until they are recorded again.
    public func requestFaceIndexing(of assetIDs: [String]) throws(LibraryError) {
        try store.requestFaceIndexing(assetIDs: assetIDs)
    }

    /// How far indexing by `algorithm` has come, and what it found: for `sepia faces status` and `/metrics`.
    public func faceIndexStatus(algorithm: Int) throws(LibraryError) -> FaceIndexStatus {
        try store.faceIndexStatus(algorithm: algorithm, minimumFaces: configuration.faceGrouping.minimumFacesPerPerson)
    }

    // MARK: - Faces and people

    /// The faces of an asset, left to right.
    public func faces(in assetID: String) throws(LibraryError) -> [Face] {
        try store.faces(assetID: assetID)
    }

    /// The face with this identifier.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/notFound``) when there is none.
    public func face(_ id: String) throws(LibraryError) -> Face {
        guard let face = try store.faces(ids: [id]).first else { throw LibraryError(.notFound, "no face has this identifier", subject: id) }
        return face
    }

    /// The faces with these identifiers, in no particular order; identifiers of no face are left out. One read
    /// for a page of people's key faces.
    public func faces(withIDs ids: [String]) throws(LibraryError) -> [Face] {
        try store.faces(ids: ids)
    }

    /// A person's faces, newest asset first.
    public func faces(of personID: String) throws(LibraryError) -> [Face] {
        try store.faces(personID: personID)
    }

    /// Faces that belong to no one yet, in the order they were found, a page at a time: those after the face
    /// `after` (nil: from the first), at most `limit`.
    public func unassignedFaces(after: String? = nil, limit: Int = 100) throws(LibraryError) -> [Face] {
        try store.unassignedFaces(after: after, limit: max(1, limit))
    }

    /// The People view: every person with at least ``FaceGroupingOptions/minimumFacesPerPerson`` faces, or a
    /// name; named people first, then those in the most photos first (ties by name, then age).
    /// - Parameter includingHidden: Whether people the user hid are listed too.
    public func people(includingHidden: Bool = false) throws(LibraryError) -> [Person] {
        try store.people(minimumFaces: configuration.faceGrouping.minimumFacesPerPerson, includingHidden: includingHidden)
    }

    /// The person with this identifier, listed or not.
    /// - Throws: ``LibraryError`` (``LibraryError/Code/notFound``) when there is none.
    public func person(_ id: String) throws(LibraryError) -> Person {
        guard let person = try store.people(ids: [id]).first else {
            throw LibraryError(.notFound, "no person has this identifier", subject: id)
        }
        return person
    }

    /// The people with these identifiers, listed or not, in no particular order; identifiers of no one are left
    /// out.
    public func people(withIDs ids: [String]) throws(LibraryError) -> [Person] {
        try store.people(ids: ids)
    }

    /// The person called `name`, compared without case and accents; nil when no one is.
    public func person(named name: String) throws(LibraryError) -> Person? {
        try store.person(named: name.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A person's photos and videos, newest first unless `options` sort them: the assets with one of their
    /// faces, as an ordinary fetch (hidden assets and Recently Deleted left out unless `options` say).
    public func fetchAssets(of personID: String, options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        try fetchAssets(Self.personOptions(personID, options))
    }

    /// One page of a person's photos and videos, newest first unless `options` sort them (see
    /// ``fetchAssetPage(_:options:after:limit:)``).
    public func fetchAssetPage(
        of personID: String, options: FetchOptions = FetchOptions(), after cursor: AssetCursor? = nil, limit: Int = 100
    ) throws(LibraryError) -> AssetPage {
        try fetchAssetPage(options: Self.personOptions(personID, options), after: cursor, limit: limit)
    }

    private static func personOptions(_ personID: String, _ options: FetchOptions) -> FetchOptions {
        var options = options
        options.predicate = options.predicate.map { .person(personID) && $0 } ?? .person(personID)
        if options.sortDescriptors.isEmpty { options.sortDescriptors = [AssetSortDescriptor(.creationDate, ascending: false)] }
        return options
    }

    // MARK: - The user's decisions

    /// Says whose face this is: the person called `name` (compared without case and accents), or a new person
    /// of that name. The face is confirmed there: no later grouping moves it. A face of the same asset that the
    /// grouping had given that person leaves them (two faces of one photo are never one person), and an earlier
    /// "Not this person" about the face and that person is withdrawn.
    /// - Returns: The way back (``undo(_:)``).
    /// - Throws: ``LibraryError``: ``LibraryError/Code/notFound`` for an unknown face;
    ///   ``LibraryError/Code/invalidRequest`` for a bad name, or when the person has a confirmed face in the same
    ///   asset.
    @discardableResult
    public func assignFace(_ faceID: String, toPersonNamed name: String) throws(LibraryError) -> PeopleUndo {
        try peopleChange { () throws(LibraryError) in try store.assignFace(id: faceID, to: .named(name), date: configuration.clock()) }
    }

    /// Says whose face this is: the person with this identifier (see ``assignFace(_:toPersonNamed:)``).
    @discardableResult
    public func assignFace(_ faceID: String, toPerson personID: String) throws(LibraryError) -> PeopleUndo {
        try peopleChange { () throws(LibraryError) in try store.assignFace(id: faceID, to: .person(id: personID), date: configuration.clock()) }
    }

    /// "Not this person": the face leaves its person and is unassigned; it never joins that person again, through
    /// any later recording or regrouping (a later grouping may give it to someone else). The person is no longer
    /// listed if this leaves them too few faces, and is deleted if it leaves them none and no name.
    /// - Returns: The way back (``undo(_:)``).
    /// - Throws: ``LibraryError``: ``LibraryError/Code/notFound`` for an unknown face,
    ///   ``LibraryError/Code/invalidRequest`` for a face that belongs to no one.
    @discardableResult
    public func rejectFace(_ faceID: String) throws(LibraryError) -> PeopleUndo {
        try peopleChange { () throws(LibraryError) in try store.rejectFace(id: faceID) }
    }

    /// Merges people into `target`, as one change: their faces become the target's, confirmed, and what they were
    /// said not to be, the target is not either. Where two of them have a face in one asset, the target keeps one
    /// (a confirmed face over a grouped one, else its own) and the other is unassigned. The target keeps its name
    /// and key face, taking the first source's when it has none; the sources are deleted.
    /// - Returns: The way back (``undo(_:)``), which brings the sources back with their identifiers.
    /// - Throws: ``LibraryError``: ``LibraryError/Code/notFound`` for an unknown person,
    ///   ``LibraryError/Code/invalidRequest`` when no source differs from the target.
    @discardableResult
    public func mergePeople(_ sourceIDs: [String], into targetID: String) throws(LibraryError) -> PeopleUndo {
        try peopleChange { () throws(LibraryError) in try store.mergePeople(sourceIDs, into: targetID) }
    }

    /// Undoes a change to people (``mergePeople(_:into:)``, ``rejectFace(_:)``, ``assignFace(_:toPersonNamed:)``):
    /// the faces it touched go back to whose they were, confirmed or not, the people it touched get back their
    /// names, key faces and hidden flags (one it deleted comes back with the same identifier), and the "Not this
    /// person" facts about them are as they were.
    /// - Returns: The way back again (a redo).
    /// - Throws: ``LibraryError`` (``LibraryError/Code/duplicate``) when a name to restore is now another person's.
    @discardableResult
    public func undo(_ undo: PeopleUndo) throws(LibraryError) -> PeopleUndo {
        try peopleChange { () throws(LibraryError) in try store.undoPeopleChange(undo) }
    }

    /// Names a person, or takes their name away (nil); a person without a name or faces is deleted.
    /// - Throws: ``LibraryError``: ``LibraryError/Code/invalidRequest`` for a bad name,
    ///   ``LibraryError/Code/duplicate`` (with the other person as ``LibraryError/relatedID``) when someone else has
    ///   the name (merge them instead).
    public func renamePerson(_ personID: String, to name: String?) throws(LibraryError) {
        try peopleChange { () throws(LibraryError) in try store.renamePerson(id: personID, name: name) }
    }

    /// Hides a person from the People view (``people(includingHidden:)``), or shows them again. Their faces stay
    /// theirs.
    public func setPersonHidden(_ personID: String, _ hidden: Bool) throws(LibraryError) {
        try peopleChange { () throws(LibraryError) in try store.setPersonHidden(id: personID, hidden) }
    }

    /// Chooses the face that shows a person; it must be one of theirs.
    public func setKeyFace(_ faceID: String, forPerson personID: String) throws(LibraryError) {
        try peopleChange { () throws(LibraryError) in try store.setKeyFace(personID: personID, faceID: faceID) }
    }

    // MARK: - Everything

    /// Groups every face again with the library's ``LibraryConfiguration/faceGrouping`` (after its thresholds
    /// changed, or after indexing by a new algorithm): confirmed faces stay where the user put them, every other
    /// face is placed anew, most confident first. People keep their identifiers and names where most of their
    /// faces stay together; "Not this person" facts hold.
    /// - Complexity: Each face is placed as a recorded face is; unassigned faces are compared with each other.
    public func regroupFaces() throws(LibraryError) {
        try peopleChange { () throws(LibraryError) in try store.regroupFaces(grouping: configuration.faceGrouping) }
    }

    /// Deletes every face and person, every "Not this person" fact, and the record of what was indexed: for a
    /// library whose owner turns faces off.
    public func removeAllFaces() throws(LibraryError) {
        try peopleChange { () throws(LibraryError) in try store.removeAllFaces() }
    }

    /// Runs a change to people and lets observers know at once.
    private func peopleChange<T>(_ change: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        let value = try change()
        noteChange()
        return value
    }

    /// Tells observers in this process of a commit without waiting for the change monitor's polling.
    func noteChange() {
        if let generation = try? store.currentGeneration() { monitor.didChange(generation: generation) }
    }
}
