/// One row a statement returned, its columns in the order the statement names them.
package struct SQLRow: Sendable {
    package var values: [SQLValue]

    package init(values: [SQLValue]) {
        self.values = values
    }

    package var count: Int { values.count }

    package subscript<T: SQLReadable>(_ index: Int) -> T {
        T.read(index < values.count ? values[index] : .null)
    }
}
