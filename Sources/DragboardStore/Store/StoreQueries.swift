import Dragboard

/// Read queries shared by ``BoardStore`` and ``BoardTransaction`` (internal).
///
/// Hot statements are prepared once per connection with `cachedStatement`.
enum StoreQueries {
    static let itemColumns = "id, listID, containerID, pos, kind, title, payload, changedVersion"

    static func item(from row: SQLRow) -> ItemRecord {
        ItemRecord(
            id: row[0], listID: row[1], containerID: row[2], pos: row[3],
            kind: row[4], title: row[5], payload: row[6], changedVersion: row[7])
    }

    static func fetchItems(_ db: any SQLConnection, _ sql: String, _ arguments: SQLArguments) throws -> [ItemRecord] {
        let statement = db.cachedStatement(sql: sql)
        return try statement.rows(arguments: arguments).map(item(from:))
    }

    static func fetchItem(_ db: any SQLConnection, _ sql: String, _ arguments: SQLArguments) throws -> ItemRecord? {
        let statement = db.cachedStatement(sql: sql)
        return try statement.row(arguments: arguments).map(item(from:))
    }

    /// A board's version. - Throws: ``StoreError/unknownBoard(_:)``.
    ///
    /// Read with the rest of the board's mark: the transaction then starts from what an earlier one left
    /// of the board in this state (``ReadMemo/found(board:row:stamp:)``).
    static func version(_ db: any SQLConnection, board: String) throws -> Int {
        let known = try db.memoized(ReadMemo.versionKey(board), .board(board)) {
            let row = try db.cachedStatement(sql: "SELECT \(db.boardMarkColumns) FROM board WHERE id = ?").row(arguments: [board])
            guard let row else { return Int?.none }
            db.memo.found(board: board, row: row, stamp: db.totalChangesCount)
            return Int?.some(row[0])
        }
        guard let known else { throw StoreError.unknownBoard(board) }
        return known
    }

    /// A board's lists, in `position, id` order. The same query reads each list's top-level row count
    /// (the trigger-kept `rowCount`), remembered for ``listCounts(_:board:)`` and for each list's
    /// `rowCount`: what needs a board's lists nearly always needs their counts too.
    static func lists(_ db: any SQLConnection, board: String) throws -> [ListRecord] {
        try db.memoized(listsKey(board), .board(board)) { try readLists(db, board: board) }
    }

    /// ``lists(_:board:)``'s query: the lists, their counts remembered.
    private static func readLists(_ db: any SQLConnection, board: String) throws -> [ListRecord] {
        let statement = db.cachedStatement(sql: """
            SELECT list.id, list.title, list.kind, list.position, COALESCE(rowCount.count, 0)
            FROM list LEFT JOIN rowCount ON rowCount.listID = list.id AND rowCount.containerID = ''
            WHERE list.boardID = ? ORDER BY list.position, list.id
            """)
        var lists: [ListRecord] = []
        var counts: [ListCount] = []
        for row in try statement.rows(arguments: [board]) {
            lists.append(ListRecord(id: row[0], title: row[1], kind: row[2], position: row[3]))
            counts.append(ListCount(list: row[0], count: row[4]))
        }
        remember(counts, of: board, db)
        return lists
    }

    /// Keeps a board's list counts as if they had just been read (each list's `rowCount` too).
    static func remember(_ counts: [ListCount], of board: String, _ db: any SQLConnection) {
        for list in counts { db.remember(list.count, for: rowCountKey(list.list, nil), .list(list.list)) }
        db.remember(counts, for: listCountsKey(board), .allRows(board: board))
    }

    /// Where kept answers hold a board's list counts, each list's top-level count too (as
    /// ``remember(_:of:_:)`` keeps them): what a step brought up to date (``BoardMemos``).
    static func spreadCounts(in answers: inout [MemoKey: BoardMemos.Entry], board: String) {
        guard let counts = answers[listCountsKey(board)]?.value as? [ListCount] else { return }
        for list in counts { answers[rowCountKey(list.list, nil)] = BoardMemos.Entry(value: list.count, scope: .list(list.list)) }
    }

    /// How many top-level rows each list of the board holds, in list order: read with the lists.
    static func listCounts(_ db: any SQLConnection, board: String) throws -> [ListCount] {
        if let known = db.remembered(listCountsKey(board), as: [ListCount].self) { return known }
        // The lists may be known without their counts (a move kept the one and not the other).
        let lists = try readLists(db, board: board)
        db.remember(lists, for: listsKey(board), .board(board))
        return db.remembered(listCountsKey(board), as: [ListCount].self) ?? []
    }

    /// A list and how many top-level rows it holds.
    struct ListCount: Sendable {
        var list: String
        var count: Int
    }

    /// Where ``lists(_:board:)`` keeps a board's lists (a `[ListRecord]`).
    static func listsKey(_ board: String) -> MemoKey { MemoKey("lists " + board) }

    static func listCountsKey(_ board: String) -> MemoKey { MemoKey("list counts " + board) }

    /// Where a scope's row count is kept (an `Int`): a list's top level (`containerID` nil) or a
    /// container's contents.
    static func rowCountKey(_ listID: String, _ containerID: String?) -> MemoKey { MemoKey("rowCount \(listID)\u{1F}\(containerID ?? "")") }

    /// Throws unless `listID` is a list of `board`: a list of another board is unknown here. Answered
    /// from the board's lists where this transaction has just read them.
    static func requireList(_ db: any SQLConnection, _ listID: String, board: String) throws {
        let exists = try db.remembered(listsKey(board), as: [ListRecord].self).map { $0.contains { $0.id == listID } }
            ?? db.memoized(MemoKey("list \(listID) of \(board)"), .board(board)) {
                try db.cachedStatement(sql: "SELECT 1 FROM list WHERE id = ? AND boardID = ?").fetchOne(Int.self, arguments: [listID, board]) != nil
            }
        guard exists else { throw StoreError.unknownList(listID) }
    }

    /// The board a list belongs to, if the list exists; without a query where it is one of `likely`'s
    /// lists and this transaction has just read them.
    static func board(ofList listID: String, _ db: any SQLConnection, likely: String? = nil) throws -> String? {
        if let likely, db.remembered(listsKey(likely), as: [ListRecord].self)?.contains(where: { $0.id == listID }) == true {
            return likely
        }
        return try db.cachedStatement(sql: "SELECT boardID FROM list WHERE id = ?").fetchOne(String.self, arguments: [listID])
    }

    static func item(_ db: any SQLConnection, _ id: String) throws -> ItemRecord? {
        try db.memoized(itemKey(id), scope: MemoScope.row) { try fetchItem(db, "SELECT \(itemColumns) FROM item WHERE id = ?", [id]) }
    }

    /// Where ``item(_:_:)`` keeps a row it read (an `ItemRecord?`).
    static func itemKey(_ id: String) -> MemoKey { MemoKey("item " + id) }

    /// Keeps a row another query read, so that reading it by its id costs nothing.
    static func remember(_ item: ItemRecord, _ db: any SQLConnection) {
        db.remember(Optional(item), for: itemKey(item.id), .row(item))
    }

    /// Reads the rows `ids` not yet known in one query and keeps each (a missing one as missing).
    static func prefetchItems(_ db: any SQLConnection, _ ids: [String]) throws {
        var seen: Set<String> = []
        let wanted = ids.filter { seen.insert($0).inserted && db.remembered(itemKey($0), as: ItemRecord?.self) == nil }
        guard wanted.count > 1 else { return }  // one row: its own read costs the same
        let marks = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
        let found = try fetchItems(db, "SELECT \(itemColumns) FROM item WHERE id IN (\(marks))", SQLArguments(wanted))
        for id in wanted {
            let item = found.first { $0.id == id }
            db.remember(item, for: itemKey(id), .row(item))
        }
    }

    static func requireItem(_ db: any SQLConnection, _ id: String) throws -> ItemRecord {
        guard let item = try item(db, id) else { throw StoreError.unknownItem(id) }
        return item
    }

    /// Rows of a list (top level when `containerID` is nil) in `pos, id` order.
    static func rows(_ db: any SQLConnection, listID: String, containerID: String?) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item
            WHERE listID = ? AND containerID IS ? ORDER BY pos, id
            """, [listID, containerID])
    }

    /// Direct contents of a container row, in `pos, id` order.
    static func contents(_ db: any SQLConnection, of containerID: String) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item WHERE containerID = ? ORDER BY pos, id
            """, [containerID])
    }

    static func changedSince(_ db: any SQLConnection, _ version: Int, board: String) throws -> [ItemRecord] {
        try fetchItems(db, """
            SELECT \(itemColumns) FROM item WHERE changedVersion > ?
            AND listID IN (SELECT id FROM list WHERE boardID = ?) ORDER BY changedVersion, listID, pos, id
            """, [version, board])
    }

    /// Checks that a container exists, lives in `listID`, and returns it.
    static func requireContainer(_ db: any SQLConnection, _ containerID: String, in listID: String) throws -> ItemRecord {
        let container = try requireItem(db, containerID)
        guard container.listID == listID else {
            throw StoreError.invalid("container \(containerID) is not in list \(listID)")
        }
        return container
    }
}
