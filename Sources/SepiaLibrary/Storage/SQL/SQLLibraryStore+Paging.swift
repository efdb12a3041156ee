extension SQLLibraryStore {
    func page(_ query: AssetQuery, after cursor: AssetCursor?, limit: Int) throws(LibraryError) -> AssetPage {
        let parts = Self.compileParts(query, dialect: dialect)
        if let cursor, cursor.order != parts.orderSignature || cursor.values.count != parts.order.count {
            throw LibraryError(.invalidRequest, "the cursor was made for another order or album; start from the first page")
        }
        var conditions = parts.conditions
        var arguments = parts.arguments
        if let cursor {
            // Keyset pagination: the rows that come after the cursor's values in the order, for any mix of
            // directions: (t0 after v0) OR (t0 = v0 AND t1 after v1) OR …
            var alternatives: [String] = []
            for index in parts.order.indices {
                var terms: [String] = []
                for previous in 0..<index {
                    terms.append("\(parts.order[previous].expression) = ?")
                    arguments.append(cursor.values[previous].sqlValue)
                }
                terms.append("\(parts.order[index].expression) \(parts.order[index].ascending ? ">" : "<") ?")
                arguments.append(cursor.values[index].sqlValue)
                alternatives.append("(" + terms.joined(separator: " AND ") + ")")
            }
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        let orderColumns = parts.order.map(\.expression).joined(separator: ", ")
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let select = "SELECT \(Self.assetColumns), \(orderColumns) FROM "
        let sql = select + parts.from + whereClause + parts.orderClause + " LIMIT ?"
        let search = Self.searchesVisibleAssets(query, parts)
        let byDate = search && Self.ordersByDate(parts)
        // The two ways of reading a search's page, which the databases do not tell apart by themselves: walking the
        // index of dates from the newest (SQLite is told to), or listing the matches and sorting them (PostgreSQL
        // is kept from walking by an order on expressions no index holds).
        // (Written only for the pages that may use them.)
        let walkingDates = { select + "asset a INDEXED BY asset_byCreationDate" + whereClause + parts.orderClause + " LIMIT ?" }
        let listingMatches = {
            select + parts.from + whereClause + " ORDER BY "
                + parts.order.map { "\($0.expression) + 0 \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + " LIMIT ?"
        }
        arguments.append(limit + 1)
        // On SQLite, a search's matches are counted in the visible assets' keys (v16), not in their rows.
        let countSQL =
            "SELECT count(*) FROM " + (search && dialect == .sqlite ? "asset a INDEXED BY asset_visibleByKey" : parts.from)
            + parts.whereClause
        let countArguments = parts.arguments
        let columnCount = parts.order.count
        // The whole library's count is kept by every commit; counting a million rows takes longer than the
        // page itself (170 ms against under 1 ms on PostgreSQL).
        let keptCount: String? =
            query.scope == .library && query.options.predicate == nil
            ? (query.options.includeHiddenAssets
                ? "SELECT CAST(sum(CAST(value AS BIGINT)) AS BIGINT) FROM libraryInfo WHERE key IN ('visibleAssets', 'hiddenAssets')"
                : "SELECT CAST(value AS BIGINT) FROM libraryInfo WHERE key = 'visibleAssets'")
            : nil
        return try read { db in
            let total = try db.value(keptCount ?? countSQL, keptCount == nil ? countArguments : [], as: Int.self) ?? 0
            // A search's page: walking the dates' index from the newest reads about limit × visible ÷ matches rows
            // until the page is full; listing the matches reads each. The count, known first, says which reads
            // fewer. Left to themselves, SQLite listed a common word's 13 000 matches on 100 000 photos (22 ms;
            // walking: 3), and PostgreSQL walked 10 000 photos for a city's 932 (58 ms; listing: 8).
            var pageSQL = sql
            if byDate, total > 0 {
                let visible = try db.value("SELECT CAST(value AS BIGINT) FROM libraryInfo WHERE key = 'visibleAssets'", as: Int.self) ?? 0
                let walks = total * total > (limit + 1) * visible
                switch db.dialect {
                case .sqlite: if walks { pageSQL = walkingDates() }
                case .postgreSQL: if !walks { pageSQL = listingMatches() }
                }
            }
            let rows = try db.fetch(pageSQL, arguments)
            let kept = rows.prefix(limit)
            var next: AssetCursor?
            if rows.count > limit, let last = kept.last {
                let first = last.count - columnCount
                let values = (first..<last.count).map { AssetCursor.Value(last.values[$0]) }
                next = AssetCursor(order: parts.orderSignature, values: values)
            }
            return AssetPage(assets: kept.map(Self.asset(from:)), nextCursor: next, total: total)
        }
    }
}

extension SQLLibraryStore {
    /// Whether `query` searches the library's visible assets: the indexes of them (`asset_byCreationDate`, and
    /// SQLite's `asset_visibleByKey`) hold every asset it may find, and may be read in place of the plan the
    /// database would choose.
    fileprivate static func searchesVisibleAssets(_ query: AssetQuery, _ parts: CompiledQuery) -> Bool {
        parts.from == "asset a" && query.options.predicate?.searchesText == true && !query.options.includeHiddenAssets
            && (query.scope == .library || query.scope == .smartAlbum(.recents))
    }

    /// Whether the order is `asset_byCreationDate`'s, forwards or backwards.
    fileprivate static func ordersByDate(_ parts: CompiledQuery) -> Bool {
        parts.order.map(\.expression) == ["a.creationDate", "a.rowID"] && parts.order[0].ascending == parts.order[1].ascending
    }
}

extension AssetCursor.Value {
    init(_ value: SQLValue) {
        switch value {
        case .integer(let n): self = .integer(n)
        case .real(let d): self = .real(d)
        case .text(let s): self = .text(s)
        case .bool(let b): self = .integer(b ? 1 : 0)
        case .blob, .null, .integers, .texts: self = .text("")
        }
    }

    var sqlValue: SQLValue {
        switch self {
        case .integer(let n): .integer(n)
        case .real(let d): .real(d)
        case .text(let s): .text(s)
        }
    }
}
