import GRDB

extension BoardStore {
    /// The whole board (version, lists, rows and container contents) read in one transaction.
    public func snapshot() throws -> BoardSnapshot {
        try dbQueue.read { db in
            let version = try StoreQueries.version(db)
            let lists = try StoreQueries.lists(db)
            let items = try StoreQueries.fetchItems(db, """
                SELECT \(StoreQueries.itemColumns) FROM item ORDER BY listID, containerID, pos, id
                """, [])
            return BoardSnapshot(version: version, lists: lists, items: items)
        }
    }

    /// The current board version (0 for a new store).
    public func version() throws -> Int {
        try dbQueue.read { db in try StoreQueries.version(db) }
    }

    /// All lists ordered by `position, id`.
    public func lists() throws -> [ListRecord] {
        try dbQueue.read { db in try StoreQueries.lists(db) }
    }

    /// Top-level rows of a list in display order.
    /// - Throws: ``StoreError/unknownList(_:)``.
    public func rows(in listID: String) throws -> [ItemRecord] {
        try dbQueue.read { db in
            try StoreQueries.requireList(db, listID)
            return try StoreQueries.rows(db, listID: listID, containerID: nil)
        }
    }

    /// Items inside a container row in display order.
    /// - Throws: ``StoreError/unknownItem(_:)`` if the container does not exist.
    public func contents(of containerID: String) throws -> [ItemRecord] {
        try dbQueue.read { db in
            _ = try StoreQueries.requireItem(db, containerID)
            return try StoreQueries.contents(db, of: containerID)
        }
    }

    /// The items with these ids, in the given order.
    /// - Throws: ``StoreError/unknownItem(_:)`` for the first missing id.
    public func items(_ ids: [String]) throws -> [ItemRecord] {
        try dbQueue.read { db in try ids.map { try StoreQueries.requireItem(db, $0) } }
    }

    /// Items changed by operations committed after `version` (deleted items are not reported).
    public func changedSince(_ version: Int) throws -> [ItemRecord] {
        try dbQueue.read { db in try StoreQueries.changedSince(db, version) }
    }
}
