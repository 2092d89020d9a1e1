import Dragboard

extension BoardTransaction {
    /// Each of `lists`' top-level row count, in one query for the board (a list without rows
    /// has none stored: 0).
    package func rowCounts(of lists: [ListRecord]) throws -> [String: Int] {
        let all = Dictionary(try listCounts().map { ($0.list, $0.count) }, uniquingKeysWith: { first, _ in first })
        var counts: [String: Int] = [:]
        for list in lists { counts[list.id] = all[list.id] ?? 0 }
        return counts
    }

    /// The container rows of `lists` whose kind is one of `kinds`, with their row counts, in one
    /// query for the board instead of two per list and container: this runs on every drag start
    /// and in every drop's write transaction. `INDEXED BY item_kind`: for the `ORDER BY` the planner
    /// would otherwise walk `item_order`, every top-level row of every list (30,000 on a board of three
    /// 10,000-row lists), where `item_kind` finds the few containers at once.
    package func containers(of lists: [ListRecord], kinds: [String]) throws -> [String: [(row: ItemRecord, rowCount: Int)]] {
        guard !kinds.isEmpty, !lists.isEmpty else { return [:] }
        // Changed only by a write to a list that holds one of them, or by a move of a row of those kinds.
        let all = try db.memoized(Self.containersKey(kinds, boardID),
                                  scope: { .containers(board: boardID, lists: Set($0.map(\.row.listID)), kinds: Set(kinds)) }) {
            let marks = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
            let statement = db.cachedStatement(sql: """
                SELECT item.id, item.listID, item.containerID, item.pos, item.kind, item.title, item.payload, item.changedVersion,
                       COALESCE(rowCount.count, 0)
                FROM item INDEXED BY item_kind LEFT JOIN rowCount ON rowCount.listID = item.listID AND rowCount.containerID = item.id
                WHERE item.listID IN (SELECT id FROM list WHERE boardID = ?) AND item.containerID IS NULL AND item.kind IN (\(marks))
                ORDER BY item.listID, item.pos, item.id
                """)
            return try statement.rows(arguments: SQLArguments([boardID] + kinds)).map { ContainerRow(row: StoreQueries.item(from: $0), rowCount: $0[8]) }
        }
        let wanted = Set(lists.map(\.id))
        var containers: [String: [(row: ItemRecord, rowCount: Int)]] = [:]
        for container in all {
            StoreQueries.remember(container.row, db)  // the delegates of a drag ask for each container by its id
            guard wanted.contains(container.row.listID) else { continue }
            containers[container.row.listID, default: []].append((container.row, container.rowCount))
        }
        return containers
    }

    /// Where ``containers(of:kinds:)`` keeps the board's container rows (a `[ContainerRow]`).
    static func containersKey(_ kinds: [String], _ board: String) -> MemoKey {
        MemoKey("containers \(board)\u{1F}\(kinds.joined(separator: "\u{1F}"))")
    }
}

/// A container row and how many rows it holds.
struct ContainerRow: Sendable {
    var row: ItemRecord
    var rowCount: Int
}
