import Dragboard

/// How many rows of one list (or one container's contents) a read takes, from the first.
public struct RowWindow: Sendable, Equatable {
    /// A list's id, or a container's id for its contents.
    public var list: String
    /// How many rows, from the first.
    public var count: Int

    public init(list: String, count: Int) {
        self.list = list
        self.count = count
    }
}

extension BoardTransaction {
    /// The board with only the first `window` rows of each list and of each shown container's
    /// contents (`wider` widens one of them), and every total: what a page renders, at a cost that
    /// does not grow with the lists. Totals come from the trigger-kept `rowCount` table.
    public func windowedSnapshot(window: Int, wider: RowWindow? = nil) throws -> BoardSnapshot {
        let lists = try lists()
        var items: [ItemRecord] = []
        var counts: [String: Int] = [:]
        let limit = { (id: String) in id == wider?.list ? max(window, wider?.count ?? 0) : window }
        let windowCounts = db.cachedStatement(sql: """
            SELECT containerID, count FROM rowCount WHERE listID = ? AND (containerID = '' OR containerID IN (
                SELECT id FROM item WHERE listID = ? AND containerID IS NULL ORDER BY pos, id LIMIT ?))
            """)
        for list in lists {
            let rows = try firstRows(listID: list.id, containerID: nil, limit: limit(list.id))
            // The list's total and those of the containers in its window, in one query (a database
            // across the network pays for every statement).
            var known: [String: Int] = [:]
            for row in try windowCounts.rows(arguments: [list.id, list.id, limit(list.id)]) { known[row[0]] = row[1] }
            counts[list.id] = known[""] ?? 0
            items += rows
            for row in rows where known[row.id, default: 0] > 0 {
                counts[row.id] = known[row.id]
                items += try firstRows(listID: list.id, containerID: row.id, limit: limit(row.id))
            }
        }
        var snapshot = BoardSnapshot(version: baseVersion, lists: lists, items: items, counts: counts)
        snapshot.labels = try labels()
        return snapshot
    }

    /// Up to `limit` rows of a list (top level when `containerID` is nil) after the row `after`
    /// (from the first when nil), in `pos, id` order, through the `item_order` index.
    public func firstRows(listID: String, containerID: String?, after: ItemRecord? = nil, limit: Int) throws -> [ItemRecord] {
        guard let after else {
            return try StoreQueries.fetchItems(db, """
                SELECT \(StoreQueries.itemColumns) FROM item WHERE listID = ? AND containerID IS ? ORDER BY pos, id LIMIT ?
                """, [listID, containerID, limit])
        }
        return try StoreQueries.fetchItems(db, """
            SELECT \(StoreQueries.itemColumns) FROM item WHERE listID = ? AND containerID IS ? AND (pos, id) > (?, ?)
            ORDER BY pos, id LIMIT ?
            """, [listID, containerID, after.pos, after.id, limit])
    }

    /// How many top-level rows each list of the board holds, in one read of the trigger-kept counts
    /// (with the board's lists: one query for both).
    public func listCounts() throws -> [(list: String, count: Int)] {
        try StoreQueries.listCounts(db, board: boardID).map { ($0.list, $0.count) }
    }
}
