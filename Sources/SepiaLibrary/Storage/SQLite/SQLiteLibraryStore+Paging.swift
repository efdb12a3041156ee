import GRDB

extension SQLiteLibraryStore {
    func page(_ query: AssetQuery, after cursor: AssetCursor?, limit: Int) throws(LibraryError) -> AssetPage {
        let parts = Self.compileParts(query)
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
                    arguments.append(cursor.values[previous].databaseValue)
                }
                terms.append("\(parts.order[index].expression) \(parts.order[index].ascending ? ">" : "<") ?")
                arguments.append(cursor.values[index].databaseValue)
                alternatives.append("(" + terms.joined(separator: " AND ") + ")")
            }
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        let orderColumns = parts.order.map(\.expression).joined(separator: ", ")
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(Self.assetColumns), \(orderColumns) FROM \(parts.from)" + whereClause + parts.orderClause + " LIMIT ?"
        arguments.append(limit + 1)
        let countSQL = "SELECT count(*) FROM \(parts.from)" + parts.whereClause
        let countArguments = StatementArguments(parts.arguments)
        let statementArguments = StatementArguments(arguments)
        let columnCount = parts.order.count
        return try read { db in
            let rows = try Row.fetchAll(db, sql: sql, arguments: statementArguments)
            let total = try Int.fetchOne(db, sql: countSQL, arguments: countArguments) ?? 0
            let kept = rows.prefix(limit)
            var next: AssetCursor?
            if rows.count > limit, let last = kept.last {
                let first = last.count - columnCount
                let values = (first..<last.count).map { AssetCursor.Value(last[$0] as DatabaseValue) }
                next = AssetCursor(order: parts.orderSignature, values: values)
            }
            return AssetPage(assets: kept.map(Self.asset(from:)), nextCursor: next, total: total)
        }
    }
}

extension AssetCursor.Value {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let n): self = .integer(n)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob, .null: self = .text("")
        }
    }

    var databaseValue: any DatabaseValueConvertible {
        switch self {
        case .integer(let n): n
        case .real(let d): d
        case .text(let s): s
        }
    }
}
