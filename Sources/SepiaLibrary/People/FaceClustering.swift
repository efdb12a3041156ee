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
/// was last computed, again each time they double) and their faces' distances from it, sorted. By the triangle
/// inequality a face of theirs is at least |d(query, pivot) − d(face, pivot)| from a new face, and all of
/// them at least d(query, pivot) − radius. So a new face measures its distance to each pivot, visits people
/// nearest bound first, stops once the bound passes the threshold or the best mean found, and within a person
/// compares prints only with the faces whose pivot distance lies in the window the bound leaves (found by
/// binary search). The unassigned faces are scanned linearly, each comparison stopping once it passes the
/// threshold. Placing a face costs O(P) distances for P people, plus those to the faces of the people near it
/// and to the U unassigned faces. Measured on made-up prints (100 people in 10 000 faces, 1 000 people in
/// 100 000), placing a face takes about 60 µs and 500 µs in a release build.
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
    /// it was last computed), in ascending order of that distance.
    struct Group: Sendable {
        /// The faces, nearest the pivot first.
        private(set) var rows: [Int64] = []
        /// Each face's distance from the pivot, ascending.
        private(set) var reach: [Float] = []
        /// The centroid of the faces when it was last computed (empty while the group has no face).
        private(set) var pivot: [Float] = []
        /// The number of faces when the pivot was last computed.
        private(set) var pivotCount = 0

        var members: Set<Int64> { Set(rows) }
        var isEmpty: Bool { rows.isEmpty }
        /// The largest distance of a face from the pivot.
        var radius: Float { reach.last ?? 0 }

        /// The index of the first face at least `distance` from the pivot.
        func firstIndex(reaching distance: Float) -> Int {
            var low = 0
            var high = reach.count
            while low < high {
                let middle = (low + high) / 2
                if reach[middle] < distance { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func insert(_ row: Int64, reach distance: Float) {
            let index = firstIndex(reaching: distance)
            rows.insert(row, at: index)
            reach.insert(distance, at: index)
        }

        mutating func remove(_ row: Int64) {
            guard let index = rows.firstIndex(of: row) else { return }
            rows.remove(at: index)
            reach.remove(at: index)
            if rows.isEmpty {
                pivot = []
                pivotCount = 0
            }
        }

        /// Sets the pivot and the faces with their distances from it.
        mutating func repivot(_ centroid: [Float], rows faces: [Int64], reach distances: [Float]) {
            let order = distances.indices.sorted { distances[$0] < distances[$1] }
            pivot = centroid
            rows = order.map { faces[$0] }
            reach = order.map { distances[$0] }
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
                groups[person]?.insert(entry.rowID, reach: 0)
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
        // Best pair first: a face whose best person was just taken by a nearer face of the same asset looks
        // again, among the others.
        var placed: [Int64] = []
        var pending = faces.filter { unassigned.contains($0) }
        while !pending.isEmpty {
            var proposals: [(face: Int64, person: Int64, score: Float)] = []
            for face in pending {
                if let best = bestPerson(for: face) { proposals.append((face, best.person, best.score)) }
            }
            proposals.sort { ($0.score, $0.face, $0.person) < ($1.score, $1.face, $1.person) }
            pending = []
            for proposal in proposals {
                guard let slot = slots[proposal.face], !has(asset: entries[slot].asset, in: proposal.person, besides: proposal.face) else {
                    pending.append(proposal.face)
                    continue
                }
                assign(proposal.face, to: proposal.person, state: .grouped)
                placed.append(proposal.face)
            }
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
        // The faces are placed one at a time, as if recorded in that order: each meets only those placed before
        // it, so that placing one does not scan every face still to place.
        let order = unassigned.sorted { lhs, rhs in
            let (a, b) = (entries[slots[lhs] ?? 0].confidence, entries[slots[rhs] ?? 0].confidence)
            return a != b ? a > b : lhs < rhs
        }
        unassigned = []
        for face in order {
            unassigned.insert(face)
            try place([face], newPerson: newPerson)
        }
        previousPerson = [:]
    }

    /// The person `face` joins: of those whose nearest face and mean distance to their nearest faces are within
    /// the threshold, the one with the lowest mean; nil when there is none. Without `respectingAssets`, people
    /// who have a face of the same asset count too.
    ///
    /// A person's faces are at least d(face, pivot) − radius from the face, so people are visited in that order
    /// and the search stops once that bound reaches the threshold or the best mean found.
    func bestPerson(for face: Int64, respectingAssets: Bool = true) -> (person: Int64, score: Float)? {
        guard let slot = slots[face] else { return nil }
        let query = Array(descriptors[slot * Self.length..<(slot + 1) * Self.length])
        let asset = entries[slot].asset
        let current = entries[slot].person
        let rejected = rejections[face] ?? []
        let threshold = options.distanceThreshold
        var order: [(person: Int64, toPivot: Float, bound: Float)] = []
        for (person, group) in groups where !group.isEmpty && !rejected.contains(person) {
            let toPivot = FaceDescriptor.squaredDistance(group.pivot, 0, query, 0, limit: .infinity).squareRoot()
            let bound = toPivot - group.radius
            if bound <= threshold + Self.slack { order.append((person, toPivot, bound)) }
        }
        order.sort { ($0.bound, $0.person) < ($1.bound, $1.person) }
        var best: (person: Int64, score: Float)?
        for candidate in order {
            if let best, candidate.bound >= best.score + Self.slack { break }
            guard let group = groups[candidate.person],
                let score = joinScore(query, group: group, toPivot: candidate.toPivot, excluding: current == candidate.person ? face : nil),
                best.map({ (score, candidate.person) < ($0.score, $0.person) }) ?? true
            else { continue }
            if respectingAssets && has(asset: asset, in: candidate.person, besides: face) { continue }
            best = (candidate.person, score)
        }
        return best
    }

    /// Slack for the rounding of pivot distances in the bounds.
    private static let slack: Float = 1e-4

    /// The mean distance from `query` to the group's nearest faces, when the nearest and that mean are within
    /// the threshold; nil otherwise.
    ///
    /// Most faces are ruled out without comparing prints: by the triangle inequality a face of theirs is at
    /// least |d(query, pivot) − d(face, pivot)| from the query, and the second distance is kept, in order.
    private func joinScore(_ query: [Float], group: Group, toPivot: Float, excluding face: Int64?) -> Float? {
        let rows = group.rows
        let reach = group.reach
        let k = min(options.neighbourCount, rows.count - (face == nil ? 0 : 1))
        guard k > 0 else { return nil }
        let threshold = options.distanceThreshold
        let slack = Self.slack
        if toPivot - group.radius > threshold + slack { return nil }
        // Is any face within the threshold? Only faces whose distance from the pivot is within the threshold of
        // the query's can be.
        var near = false
        var index = group.firstIndex(reaching: toPivot - threshold - slack)
        while index < rows.count && reach[index] <= toPivot + threshold + slack && !near {
            defer { index += 1 }
            guard rows[index] != face, let slot = slots[rows[index]] else { continue }
            let limit = threshold * threshold
            near = FaceDescriptor.squaredDistance(descriptors, slot * Self.length, query, 0, limit: limit) <= limit
        }
        guard near else { return nil }
        // The k nearest, in ascending order. A face farther than k times the threshold makes the mean fail by
        // itself, so the search is bounded there, then by the k-th nearest so far.
        var nearest: [Float] = []
        nearest.reserveCapacity(k + 1)
        var bound = Float(k) * threshold
        index = group.firstIndex(reaching: toPivot - bound - slack)
        while index < rows.count && reach[index] <= toPivot + bound + slack {
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
        guard bestPerson(for: face, respectingAssets: false) == nil else { return nil }
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
            guard nearAll, bestPerson(for: candidate.face, respectingAssets: false) == nil else { continue }
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
                guard let best = bestPerson(for: face) else { continue }
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
            group.insert(rowID, reach: 0)
            groups[person] = group
            repivot(person)
            return
        }
        let distance = FaceDescriptor.squaredDistance(descriptors, slot * Self.length, group.pivot, 0, limit: .infinity).squareRoot()
        group.insert(rowID, reach: distance)
        groups[person] = group
    }

    /// Makes a person's pivot the centroid of their faces, and measures each face's distance from it.
    private mutating func repivot(_ person: Int64) {
        guard var group = groups[person] else { return }
        groups[person] = nil
        var sum = [Double](repeating: 0, count: Self.length)
        var rows: [Int64] = []
        var slotsOfRows: [Int] = []
        for row in group.rows {
            guard let slot = slots[row] else { continue }
            rows.append(row)
            slotsOfRows.append(slot)
            for index in 0..<Self.length { sum[index] += Double(descriptors[slot * Self.length + index]) }
        }
        if slotsOfRows.isEmpty {
            group.repivot([], rows: [], reach: [])
        } else {
            let count = Double(slotsOfRows.count)
            let centroid = sum.map { Float($0 / count) }
            let distances = slotsOfRows.map {
                FaceDescriptor.squaredDistance(descriptors, $0 * Self.length, centroid, 0, limit: .infinity).squareRoot()
            }
            group.repivot(centroid, rows: rows, reach: distances)
        }
        groups[person] = group
    }
}
