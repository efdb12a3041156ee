/// The library's faces grouped into people, in memory: the decisions of the grouping, made in pure Swift on
/// face rows, person rows and "Not this person" facts, which the store then writes.
///
/// **Joining.** A face joins the person for whom both its nearest face and the mean of its
/// ``FaceGroupingOptions/neighbourCount`` nearest faces are within ``FaceGroupingOptions/distanceThreshold``,
/// the nearest such mean winning, unless the user said it is not that person, or that person already has a face
/// of the same asset (two faces of one photo are never one person). Faces placed together are matched best
/// pair first, so two faces of one photo that look alike do not both claim one person.
///
/// **New people.** A face that joins no one looks among the unassigned faces for those within the threshold,
/// nearest first, and keeps each that is within the threshold of every one kept so far and from another asset;
/// when that makes ``FaceGroupingOptions/minimumFacesPerPerson`` faces, they become a person. Unassigned faces
/// near a face that was just placed are then offered to the people again, so a person that grew takes in the
/// faces that waited for it.
///
/// A face that would join someone but for their face in the same asset (a mirror, a photo of a photo) waits
/// rather than start a second person of them.
///
/// **Cost.** Prints stay in memory (10 000 faces are 5 MB). Each person keeps a pivot (their centroid when it
/// was last computed, again each time they double) and each face's distance from it; by the triangle
/// inequality a face of theirs is at least |d(query, pivot) − d(face, pivot)| from a new face, so one distance
/// to the pivot and a comparison of numbers rule out almost every face of the people the new face is not, and
/// prints are compared one by one only with faces that may be within the threshold. The unassigned faces are
/// scanned linearly, each comparison stopping once it passes the threshold. Placing a face costs O(P) distances
/// for P people, O(F) comparisons of numbers for F assigned faces, and O(n + U) distances for the n faces of the
/// person it joins and the U unassigned faces.
struct FaceClustering: Sendable {
    /// One face as the grouping sees it.
    struct Entry: Sendable, Hashable {
        var rowID: Int64
        var asset: Int64
        var person: Int64?
        var state: Face.State
        var confidence: Float
    }

    /// One person's faces, each with its distance from a fixed point near them (the pivot: their centroid when
    /// it was last computed), and the largest of those distances.
    struct Group: Sendable {
        /// The faces.
        private(set) var rows: [Int64] = []
        /// Each face's distance from the pivot.
        private(set) var reach: [Float] = []
        /// The centroid of the faces when it was last computed (empty while the group has no face).
        private(set) var pivot: [Float] = []
        /// The largest of ``reach``.
        private(set) var radius: Float = 0
        /// The number of faces when the pivot was last computed.
        private(set) var pivotCount = 0

        var members: Set<Int64> { Set(rows) }
        var isEmpty: Bool { rows.isEmpty }

        mutating func append(_ row: Int64, reach distance: Float) {
            rows.append(row)
            reach.append(distance)
            radius = max(radius, distance)
        }

        mutating func remove(_ row: Int64) {
            guard let index = rows.firstIndex(of: row) else { return }
            rows.remove(at: index)
            reach.remove(at: index)
            radius = reach.max() ?? 0
            if rows.isEmpty {
                pivot = []
                pivotCount = 0
            }
        }

        /// Sets the pivot and every face's distance from it.
        mutating func repivot(_ centroid: [Float], reach distances: [Float]) {
            pivot = centroid
            reach = distances
            radius = distances.max() ?? 0
            pivotCount = rows.count
        }
    }

    /// A face's person and state as they were before the changes not yet taken.
    private struct Assignment: Hashable {
        var person: Int64?
        var state: Face.State
    }

    let options: FaceGroupingOptions
    private(set) var entries: [Entry] = []
    /// The prints, ``DetectedFace/descriptorLength`` values per entry, in the entries' order.
    private(set) var descriptors: [Float] = []
    private var slots: [Int64: Int] = [:]
    private var facesOfAsset: [Int64: [Int64]] = [:]
    private(set) var groups: [Int64: Group] = [:]
    /// "Not this person": for a face, the people it is not.
    private(set) var rejections: [Int64: Set<Int64>] = [:]
    private(set) var unassigned: Set<Int64> = []
    /// Faces whose person or state changed since the changes were last taken, with what they were before.
    private var originalAssignments: [Int64: Assignment] = [:]
    /// People who gained or lost a face since the changes were last taken.
    private var touchedPeople: Set<Int64> = []
    /// During a regrouping, each face's person before it: a new group takes the identifier of the person most
    /// of its faces were, when that person has no faces left, so that people keep their identifiers (and names)
    /// through a regrouping.
    private var previousPerson: [Int64: Int64] = [:]

    private static let length = DetectedFace.descriptorLength

    init(options: FaceGroupingOptions) {
        self.options = options
    }

    var faceCount: Int { entries.count }

    /// The face in row `rowID`, if the grouping has it.
    func entry(_ rowID: Int64) -> Entry? {
        slots[rowID].map { entries[$0] }
    }

    /// The print of the face in row `rowID`.
    func descriptor(of rowID: Int64) -> [Float]? {
        slots[rowID].map { Array(descriptors[$0 * Self.length..<($0 + 1) * Self.length]) }
    }

    // MARK: - Rows

    /// Adds a person without faces (a person row).
    mutating func addPerson(_ person: Int64) {
        if groups[person] == nil { groups[person] = Group() }
    }

    /// Forgets a person, who must have no faces.
    mutating func removePerson(_ person: Int64) {
        precondition(groups[person]?.isEmpty ?? true, "a person is removed only once their faces have left")
        groups[person] = nil
        for face in rejections.keys { rejections[face]?.remove(person) }
    }

    /// Adds a face row. Its person must have been added.
    mutating func insertFace(_ entry: Entry, descriptor: [Float], rebuildingGroup: Bool = true) {
        precondition(descriptor.count == Self.length && slots[entry.rowID] == nil, "a face is added once, with a whole print")
        slots[entry.rowID] = entries.count
        entries.append(Entry(rowID: entry.rowID, asset: entry.asset, person: nil, state: .unassigned, confidence: entry.confidence))
        descriptors.append(contentsOf: descriptor)
        facesOfAsset[entry.asset, default: []].append(entry.rowID)
        unassigned.insert(entry.rowID)
        if let person = entry.person {
            let slot = entries.count - 1
            entries[slot].person = person
            entries[slot].state = entry.state == .unassigned ? .grouped : entry.state
            unassigned.remove(entry.rowID)
            addPerson(person)
            if rebuildingGroup {
                add(slot, to: person)
            } else {
                groups[person]?.append(entry.rowID, reach: 0)
            }
        }
    }

    /// Records a "Not this person" fact.
    mutating func reject(_ face: Int64, from person: Int64) {
        rejections[face, default: []].insert(person)
    }

    /// Removes a face row (its asset was indexed again without it, or deleted).
    mutating func removeFace(_ rowID: Int64) {
        guard let slot = slots[rowID] else { return }
        if entries[slot].person != nil { assign(rowID, to: nil, state: .unassigned) }
        unassigned.remove(rowID)
        rejections[rowID] = nil
        originalAssignments[rowID] = nil
        let asset = entries[slot].asset
        facesOfAsset[asset]?.removeAll { $0 == rowID }
        if facesOfAsset[asset]?.isEmpty == true { facesOfAsset[asset] = nil }
        let last = entries.count - 1
        if slot != last {
            entries[slot] = entries[last]
            slots[entries[slot].rowID] = slot
            for index in 0..<Self.length { descriptors[slot * Self.length + index] = descriptors[last * Self.length + index] }
        }
        entries.removeLast()
        descriptors.removeLast(Self.length)
        slots[rowID] = nil
    }

    /// Gives a face row a new print (found again by a newer algorithm), keeping its person.
    mutating func replaceDescriptor(of rowID: Int64, with descriptor: [Float], confidence: Float) {
        guard let slot = slots[rowID], descriptor.count == Self.length else { return }
        let person = entries[slot].person
        if let person { groups[person]?.remove(rowID) }
        for index in 0..<Self.length { descriptors[slot * Self.length + index] = descriptor[index] }
        entries[slot].confidence = confidence
        if let person { add(slot, to: person) }
    }

    /// Computes every person's pivot and distances from their faces (after loading).
    mutating func rebuildAll() {
        for person in groups.keys { repivot(person) }
    }

    // MARK: - Assignments

    /// Moves a face to `person` (nil: unassigned) in `state`.
    mutating func assign(_ rowID: Int64, to person: Int64?, state: Face.State) {
        guard let slot = slots[rowID] else { return }
        let before = Assignment(person: entries[slot].person, state: entries[slot].state)
        let after = Assignment(person: person, state: person == nil ? .unassigned : state)
        guard before != after else { return }
        if originalAssignments[rowID] == nil { originalAssignments[rowID] = before }
        if let old = before.person, old != person {
            groups[old]?.remove(rowID)
            touchedPeople.insert(old)
        }
        entries[slot].person = after.person
        entries[slot].state = after.state
        if let person {
            unassigned.remove(rowID)
            if before.person != person {
                addPerson(person)
                add(slot, to: person)
                touchedPeople.insert(person)
            }
        } else {
            unassigned.insert(rowID)
        }
    }

    /// The faces whose person or state changed, as they are now, and the people who gained or lost faces, since
    /// the last call; forgets them.
    mutating func takeChanges() -> (faces: [Entry], people: Set<Int64>) {
        var changed: [Entry] = []
        for (rowID, before) in originalAssignments {
            guard let slot = slots[rowID] else { continue }
            let entry = entries[slot]
            if entry.person != before.person || entry.state != before.state { changed.append(entry) }
        }
        let people = touchedPeople
        originalAssignments = [:]
        touchedPeople = []
        return (changed.sorted { $0.rowID < $1.rowID }, people)
    }

    // MARK: - Grouping

    /// Places unassigned faces: each joins a person, or makes a new one with other unassigned faces, or waits.
    /// `newPerson` makes a person row and returns its key.
    mutating func place(_ faces: [Int64], newPerson: () throws -> Int64) rethrows {
        var proposals: [(face: Int64, person: Int64, score: Float)] = []
        for face in faces where unassigned.contains(face) {
            for candidate in joinCandidates(for: face) {
                proposals.append((face, candidate.person, candidate.score))
            }
        }
        proposals.sort { ($0.score, $0.face, $0.person) < ($1.score, $1.face, $1.person) }
        var placed: [Int64] = []
        for proposal in proposals where unassigned.contains(proposal.face) {
            guard let slot = slots[proposal.face], !has(asset: entries[slot].asset, in: proposal.person, besides: proposal.face) else {
                continue
            }
            assign(proposal.face, to: proposal.person, state: .grouped)
            placed.append(proposal.face)
        }
        let waiting = faces.filter { unassigned.contains($0) }.sorted { lhs, rhs in
            let (a, b) = (entries[slots[lhs] ?? 0].confidence, entries[slots[rhs] ?? 0].confidence)
            return a != b ? a > b : lhs < rhs
        }
        for face in waiting where unassigned.contains(face) {
            if let person = try formPerson(around: face, newPerson: newPerson), let members = groups[person]?.rows {
                placed.append(contentsOf: members)
            }
        }
        absorb(from: placed)
    }

    /// Groups every face again: confirmed faces stay with their people, every other face is placed anew, one at a
    /// time, most confident first. A new group takes the identifier of the person most of its faces were with,
    /// if that person has no faces left, without the faces said not to be them.
    mutating func regroup(newPerson: () throws -> Int64) rethrows {
        previousPerson = [:]
        for slot in entries.indices where entries[slot].state == .grouped {
            guard let person = entries[slot].person else { continue }
            let rowID = entries[slot].rowID
            previousPerson[rowID] = person
            if originalAssignments[rowID] == nil { originalAssignments[rowID] = Assignment(person: person, state: .grouped) }
            entries[slot].person = nil
            entries[slot].state = .unassigned
            groups[person]?.remove(rowID)
            unassigned.insert(rowID)
            touchedPeople.insert(person)
        }
        let order = unassigned.sorted { lhs, rhs in
            let (a, b) = (entries[slots[lhs] ?? 0].confidence, entries[slots[rhs] ?? 0].confidence)
            return a != b ? a > b : lhs < rhs
        }
        for face in order where unassigned.contains(face) {
            try place([face], newPerson: newPerson)
        }
        previousPerson = [:]
    }

    /// The people `face` may join, with the mean distance to their nearest faces (lower is better). Without
    /// `respectingAssets`, people who have a face of the same asset are included.
    func joinCandidates(for face: Int64, respectingAssets: Bool = true) -> [(person: Int64, score: Float)] {
        guard let slot = slots[face] else { return [] }
        let query = Array(descriptors[slot * Self.length..<(slot + 1) * Self.length])
        let asset = entries[slot].asset
        var candidates: [(person: Int64, score: Float)] = []
        let current = entries[slot].person
        let rejected = rejections[face] ?? []
        for (person, group) in groups where !group.isEmpty && !rejected.contains(person) {
            guard let score = joinScore(query, group: group, excluding: current == person ? face : nil) else { continue }
            if respectingAssets && has(asset: asset, in: person, besides: face) { continue }
            candidates.append((person, score))
        }
        return candidates
    }

    /// The mean distance from `query` to the group's nearest faces, when the nearest and that mean are within
    /// the threshold; nil otherwise.
    ///
    /// Most people are ruled out without comparing prints: by the triangle inequality a face of theirs is at
    /// least |d(query, pivot) − d(face, pivot)| from the query, and the second distance is kept.
    private func joinScore(_ query: [Float], group: Group, excluding face: Int64?) -> Float? {
        let rows = group.rows
        let reach = group.reach
        let k = min(options.neighbourCount, rows.count - (face == nil ? 0 : 1))
        guard k > 0 else { return nil }
        let threshold = options.distanceThreshold
        // A little slack for the rounding of the pivot distances.
        let slack: Float = 1e-4
        let toPivot = FaceDescriptor.squaredDistance(group.pivot, 0, query, 0, limit: .infinity).squareRoot()
        if toPivot - group.radius > threshold + slack { return nil }
        // Is any face within the threshold?
        var near = false
        var index = 0
        while index < rows.count && !near {
            defer { index += 1 }
            guard abs(toPivot - reach[index]) <= threshold + slack, rows[index] != face, let slot = slots[rows[index]] else { continue }
            let limit = threshold * threshold
            near = FaceDescriptor.squaredDistance(descriptors, slot * Self.length, query, 0, limit: limit) <= limit
        }
        guard near else { return nil }
        // The k nearest, in ascending order. A face farther than k times the threshold makes the mean fail by
        // itself, so the search is bounded there, then by the k-th nearest so far.
        var nearest: [Float] = []
        nearest.reserveCapacity(k + 1)
        var bound = Float(k) * threshold
        index = 0
        while index < rows.count {
            defer { index += 1 }
            guard abs(toPivot - reach[index]) <= bound + slack, rows[index] != face, let slot = slots[rows[index]] else { continue }
            let distance = FaceDescriptor.squaredDistance(descriptors, slot * Self.length, query, 0, limit: bound * bound).squareRoot()
            if nearest.count == k {
                guard distance < nearest[k - 1] else { continue }
                nearest.removeLast()
            }
            var position = nearest.count
            while position > 0 && nearest[position - 1] > distance { position -= 1 }
            nearest.insert(distance, at: position)
            if nearest.count == k { bound = min(bound, nearest[k - 1]) }
        }
        // Fewer than k within the bound: the others are farther than k times the threshold.
        guard nearest.count == k else { return nil }
        let mean = nearest.reduce(0, +) / Float(k)
        return mean <= threshold ? mean : nil
    }

    /// Whether `person` has a face of `asset` other than `face`.
    private func has(asset: Int64, in person: Int64, besides face: Int64) -> Bool {
        for other in facesOfAsset[asset] ?? [] where other != face {
            if let slot = slots[other], entries[slot].person == person { return true }
        }
        return false
    }

    /// Makes a person of `face` and the unassigned faces near it, if there are enough of them from different
    /// assets, each near every other. Returns the person.
    private mutating func formPerson(around face: Int64, newPerson: () throws -> Int64) rethrows -> Int64? {
        guard unassigned.contains(face), let slot = slots[face] else { return nil }
        // A face that would join someone but for a face of theirs in the same asset (a mirror, a photo of a
        // photo) is theirs: it makes no new person, which would be a second one of them.
        guard joinCandidates(for: face, respectingAssets: false).isEmpty else { return nil }
        let minimum = options.minimumFacesPerPerson
        let threshold = options.distanceThreshold * options.distanceThreshold
        let start = slot * Self.length
        let asset = entries[slot].asset
        var near: [(face: Int64, distance: Float)] = []
        for other in unassigned where other != face {
            guard let otherSlot = slots[other], entries[otherSlot].asset != asset else { continue }
            let distance = FaceDescriptor.squaredDistance(descriptors, otherSlot * Self.length, descriptors, start, limit: threshold)
            if distance <= threshold { near.append((other, distance)) }
        }
        guard near.count + 1 >= minimum else { return nil }
        near.sort { ($0.distance, $0.face) < ($1.distance, $1.face) }
        var members = [face]
        var memberSlots = [slot]
        var assets: Set<Int64> = [asset]
        for candidate in near {
            guard let candidateSlot = slots[candidate.face], !assets.contains(entries[candidateSlot].asset) else { continue }
            let candidateStart = candidateSlot * Self.length
            let nearAll = memberSlots.dropFirst().allSatisfy { member in
                FaceDescriptor.squaredDistance(descriptors, member * Self.length, descriptors, candidateStart, limit: threshold) <= threshold
            }
            guard nearAll, joinCandidates(for: candidate.face, respectingAssets: false).isEmpty else { continue }
            members.append(candidate.face)
            memberSlots.append(candidateSlot)
            assets.insert(entries[candidateSlot].asset)
        }
        guard members.count >= minimum else { return nil }
        // During a regrouping, the group may be a person from before: it takes their identifier, without the faces
        // said not to be them (which wait, unassigned, rather than come back under another identifier).
        var previous: Int64?
        if let person = identity(for: members) {
            members.removeAll { rejections[$0]?.contains(person) == true }
            guard members.count >= minimum else { return nil }
            previous = person
        }
        let person = try previous ?? newPerson()
        addPerson(person)
        for member in members { assign(member, to: person, state: .grouped) }
        return person
    }

    /// During a regrouping, the person without faces left whom most of `members` were with (counting those not
    /// said not to be them).
    private func identity(for members: [Int64]) -> Int64? {
        guard !previousPerson.isEmpty else { return nil }
        var counts: [Int64: Int] = [:]
        for member in members {
            guard let person = previousPerson[member], groups[person]?.isEmpty == true,
                rejections[member]?.contains(person) != true
            else { continue }
            counts[person, default: 0] += 1
        }
        return counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
    }

    /// Offers the unassigned faces near each face of `seeds` (and near each face that joins in turn) to the
    /// people.
    private mutating func absorb(from seeds: [Int64]) {
        var queue = seeds
        let threshold = options.distanceThreshold * options.distanceThreshold
        while let seed = queue.popLast() {
            guard let slot = slots[seed] else { continue }
            let start = slot * Self.length
            var nearby: [Int64] = []
            for other in unassigned {
                guard let otherSlot = slots[other] else { continue }
                if FaceDescriptor.squaredDistance(descriptors, otherSlot * Self.length, descriptors, start, limit: threshold) <= threshold {
                    nearby.append(other)
                }
            }
            for face in nearby.sorted() where unassigned.contains(face) {
                guard let best = joinCandidates(for: face).min(by: { ($0.score, $0.person) < ($1.score, $1.person) }) else { continue }
                assign(face, to: best.person, state: .grouped)
                queue.append(face)
            }
        }
    }

    // MARK: - Pivots

    /// Adds the face in `slot` to the person, with its distance from their pivot (or a new pivot, once the group
    /// has doubled since it was computed: amortised O(1) per face).
    private mutating func add(_ slot: Int, to person: Int64) {
        guard var group = groups[person] else { return }
        groups[person] = nil
        let rowID = entries[slot].rowID
        if group.pivot.isEmpty || group.rows.count + 1 >= 2 * group.pivotCount {
            group.append(rowID, reach: 0)
            groups[person] = group
            repivot(person)
            return
        }
        let distance = FaceDescriptor.squaredDistance(descriptors, slot * Self.length, group.pivot, 0, limit: .infinity).squareRoot()
        group.append(rowID, reach: distance)
        groups[person] = group
    }

    /// Makes a person's pivot the centroid of their faces, and measures each face's distance from it.
    private mutating func repivot(_ person: Int64) {
        guard var group = groups[person] else { return }
        groups[person] = nil
        var sum = [Double](repeating: 0, count: Self.length)
        var slotsOfRows: [Int] = []
        for row in group.rows {
            guard let slot = slots[row] else { continue }
            slotsOfRows.append(slot)
            for index in 0..<Self.length { sum[index] += Double(descriptors[slot * Self.length + index]) }
        }
        if slotsOfRows.isEmpty {
            group.repivot([], reach: [])
        } else {
            let count = Double(slotsOfRows.count)
            let centroid = sum.map { Float($0 / count) }
            let distances = slotsOfRows.map {
                FaceDescriptor.squaredDistance(descriptors, $0 * Self.length, centroid, 0, limit: .infinity).squareRoot()
            }
            group.repivot(centroid, reach: distances)
        }
        groups[person] = group
    }
}
