import GRDB

/// Read queries shared by ``BoardStore`` and ``BoardTransaction`` (internal).
///
/// Hot statements are prepared once per connection with `cachedStatement`.
enum StoreQueries {
    static let itemColumns = "id, listID, containerID, pos, kind, title, payload, changedVersion"

    static func item(from row: Row) -> ItemRecord {
        ItemRecord(
            id: row[0], listID: row[1], containerID: row[2], pos: row[3],
            kind: row[4], title: row[5], payload: row[6], changedVersion: row[7])
    }

    static func fetchItems(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [ItemRecord] {
        let statement = try db.cachedStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: arguments).map(item(from:))
    }

    static func fetchItem(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> ItemRecord? {
        let statement = try db.cachedStatement(sql: sql)
        return try Row.fetchOne(statement, arguments: arguments).map(item(from:))
    }

    static func version(_ db: Database) throws -> Int {
        let statement = try db.cachedStatement(sql: "SELECT version FROM board WHERE id = ?")
        return try Int.fetchOne(statement, arguments: [BoardStore.boardID]) ?? 0
    }

    static func lists(_ db: Database) throws -> [ListRecord] {
        try Row.fetchAll(db, sql: "SELECT id, title, kind, position FROM list ORDER BY position, id").map {
            ListRecord(id: $0[0], title: $0[1], kind: $0[2], position: $0[3])
        }
    }

    static func requireList(_ db: Database, _ listID: String) throws {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM list WHERE id = ?")
        guard try Int.fetchOne(statement, arguments: [listID]) != nil else {
            throw StoreError.unknownList(listID)
        }
    }

    static func item(_ db: Database, _ id: String) throws -> ItemRecord? {
        try fetchItem(db, "SELECT \(itemColumns) FROM item WHERE id = ?", [id])
    }

    static func requireItem(_ db: Database, _ id: String) throws -> ItemRecord {
        guard let item = try item(db, id) else { throw StoreError.unknownItem(id) }
        return item
    }

    /// Rows of a list (top level when `containerID` is nil) in `pos, id` order.
    static func rows(_ db: Database, listID: String, containerID: String?) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item
            WHERE listID = ? AND containerID IS ? ORDER BY pos, id
            """, [listID, containerID])
    }

    /// Direct contents of a container row, in `pos, id` order.
    static func contents(_ db: Database, of containerID: String) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item WHERE containerID = ? ORDER BY pos, id
            """, [containerID])
    }

    static func changedSince(_ db: Database, _ version: Int) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item WHERE changedVersion > ? ORDER BY changedVersion, listID, pos, id
            """, [version])
    }

    /// Checks that a container exists, lives in `listID`, and returns it.
    static func requireContainer(_ db: Database, _ containerID: String, in listID: String) throws -> ItemRecord {
        let container = try requireItem(db, containerID)
        guard container.listID == listID else {
            throw StoreError.invalid("container \(containerID) is not in list \(listID)")
        }
        return container
    }
}
