import Dragboard

extension BoardTransaction {
    /// How many top-level rows `listID` has.
    public func rowCount(in listID: String) throws -> Int {
        try rowCount(listID, nil)
    }

    /// The display index of a top-level row of `listID`, or nil if it is not one (any more).
    public func index(of id: String, in listID: String) throws -> Int? {
        if db.remembered(StoreQueries.itemKey(id), as: ItemRecord?.self) == nil,
           case let (item?, ahead?) = try readRow(id, countingAheadIn: listID), item.listID == listID, item.containerID == nil {
            return keep(ahead, asIndexOf: item)
        }
        guard let item = try StoreQueries.item(db, id), item.listID == listID, item.containerID == nil else { return nil }
        return try displayIndex(of: item)
    }

    /// The rows ahead of a row that ``readRow(_:countingAheadIn:)`` counts at most: beyond them,
    /// ``displayIndex(of:)`` counts from the nearer end.
    private static let aheadLimit = 64

    /// Reads row `id` (kept, as ``StoreQueries/item(_:_:)`` keeps it) and, in the same query, how
    /// many top-level rows of `listID` precede it where they are few (nil beyond ``aheadLimit``, or
    /// when the row is not one of them): a drag start's row and its index in one round trip. The rows
    /// just before and after it come too, kept as the steps to them: the drop that moves it records
    /// where it was (the undo journal) without reading them again while it holds the board.
    private func readRow(_ id: String, countingAheadIn listID: String) throws -> (ItemRecord?, Int?) {
        let scope = Self.scope
        let before = "FROM item WHERE \(scope) AND (pos, id) < (i.pos, i.id) ORDER BY pos DESC, id DESC LIMIT 1"
        let after = "FROM item WHERE \(scope) AND (pos, id) > (i.pos, i.id) ORDER BY pos, id LIMIT 1"
        let row = try db.cachedStatement(sql: """
            SELECT \(StoreQueries.itemColumns),
                   (SELECT COUNT(*) FROM (SELECT 1 FROM item WHERE \(scope) AND pos < i.pos LIMIT \(Self.aheadLimit + 1)) AS ahead),
                   (SELECT COUNT(*) FROM item WHERE \(scope) AND pos = i.pos AND id < i.id),
                   (SELECT pos \(before)), (SELECT id \(before)), (SELECT pos \(after)), (SELECT id \(after))
            FROM item AS i WHERE i.id = ?
            """).row(arguments: [listID, nil, listID, nil, listID, nil, listID, nil, listID, nil, listID, nil, id])
        let item = row.map(StoreQueries.item(from:))
        db.remember(item, for: StoreQueries.itemKey(id), .row(item))
        guard let row, let item, item.listID == listID, item.containerID == nil else { return (item, nil) }
        let gap = Gap(listID: listID, containerID: nil), bound = OrderBound(pos: item.pos, id: item.id)
        func neighbour(_ pos: String?, _ id: String?) -> OrderBound? { pos.flatMap { pos in id.map { OrderBound(pos: pos, id: $0) } } }
        db.remember(neighbour(row[10], row[11]), for: Self.stepKey(.descending, from: bound, in: gap), .list(listID))
        db.remember(neighbour(row[12], row[13]), for: Self.stepKey(.ascending, from: bound, in: gap), .list(listID))
        guard (row[8] as Int) <= Self.aheadLimit else { return (item, nil) }
        return (item, (row[8] as Int) + (row[9] as Int))
    }

    /// The display index of a row inside the container `containerID`, or nil if it is not in it (any more).
    public func index(of id: String, inContainer containerID: String) throws -> Int? {
        guard let item = try StoreQueries.item(db, id), item.containerID == containerID else { return nil }
        return try displayIndex(of: item)
    }

    /// How many rows of its scope precede `item`, counted through the order index from the end
    /// its key is nearer to (by ``OrderKey/estimatedFraction(of:from:to:)``; a wrong guess costs
    /// time, never the answer), so a row near either end of a 10,000-row list costs a few steps.
    /// Steps compare `pos` alone (keys are unique in a scope: half the cost of `(pos, id)`); rows
    /// sharing its key, which files written before keys were kept unique may hold, count by id.
    private func displayIndex(of item: ItemRecord) throws -> Int {
        let index = try db.memoized(Self.indexKey(item), .list(item.listID)) { try countIndex(of: item) }
        remember(index, item)
        return index
    }

    /// Keeps `index`, just counted, as `item`'s display index.
    private func keep(_ index: Int, asIndexOf item: ItemRecord) -> Int {
        db.remember(index, for: Self.indexKey(item), .list(item.listID))
        remember(index, item)
        return index
    }

    /// Where ``displayIndex(of:)`` keeps a row's index (an `Int`).
    private static func indexKey(_ item: ItemRecord) -> String {
        "index \(item.id)\u{1F}\(item.listID)\u{1F}\(item.containerID ?? "")\u{1F}\(item.pos)"
    }

    /// ``displayIndex(of:)``'s count.
    private func countIndex(of item: ItemRecord) throws -> Int {
        let scope = Self.scope
        let arguments: SQLArguments = [item.listID, item.containerID, item.pos, item.listID, item.containerID, item.pos, item.id]
        let count = try rowCount(item.listID, item.containerID)
        let index: Int
        if count > 64, try fromTheEnd(item) {
            let after = try db.cachedStatement(sql: """
                SELECT (SELECT COUNT(*) FROM item WHERE \(scope) AND pos > ?)
                     + (SELECT COUNT(*) FROM item WHERE \(scope) AND pos = ? AND id > ?)
                """).fetchOne(Int.self, arguments: arguments) ?? 0
            index = max(0, count - 1 - after)
        } else {
            index = try db.cachedStatement(sql: """
                SELECT (SELECT COUNT(*) FROM item WHERE \(scope) AND pos < ?)
                     + (SELECT COUNT(*) FROM item WHERE \(scope) AND pos = ? AND id < ?)
                """).fetchOne(Int.self, arguments: arguments) ?? 0
        }
        return index
    }

    /// The rows of one list's top level or of one container (`containerID IS NULL` for the former).
    private static let scope = "listID = ? AND containerID IS ?"

    /// Whether `item`'s key lies nearer the last key of its scope than the first.
    private func fromTheEnd(_ item: ItemRecord) throws -> Bool {
        let scope = Self.scope
        guard let ends = try db.cachedStatement(sql: """
            SELECT (SELECT pos FROM item WHERE \(scope) ORDER BY pos LIMIT 1),
                   (SELECT pos FROM item WHERE \(scope) ORDER BY pos DESC LIMIT 1)
            """).row(arguments: [item.listID, item.containerID, item.listID, item.containerID]),
              let first = ends[0] as String?, let last = ends[1] as String? else { return false }
        return OrderKey.estimatedFraction(of: item.pos, from: first, to: last) >= 0.5
    }

    /// Keeps a row's index for ``rowBound(at:in:)`` (a drop that found its row by id lands beside
    /// it without counting rows again), valid until this transaction writes anything.
    private func remember(_ index: Int, _ item: ItemRecord) {
        knownRow.value = KnownRow(listID: item.listID, containerID: item.containerID, index: index,
                                  bound: OrderBound(pos: item.pos, id: item.id), changes: db.totalChangesCount)
    }

    /// The top-level rows of `listID` whose kind is one of `kinds`, in display order (through
    /// `item_kind`, as ``containers(of:kinds:)`` explains).
    package func containerRows(in listID: String, kinds: [String]) throws -> [ItemRecord] {
        guard !kinds.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
        return try StoreQueries.fetchItems(db, """
            SELECT \(StoreQueries.itemColumns) FROM item INDEXED BY item_kind
            WHERE listID = ? AND containerID IS NULL AND kind IN (\(marks)) ORDER BY pos, id
            """, SQLArguments([listID] + kinds))
    }

    /// The id of the row just before `id` in its list or container; nil when it is first.
    public func predecessor(of id: String) throws -> String? {
        let item = try StoreQueries.requireItem(db, id)
        let gap = Gap(listID: item.listID, containerID: item.containerID)
        return try bound(before: OrderBound(pos: item.pos, id: item.id), in: gap, skipping: []).map(\.id)
    }
}

extension BoardStore {
    /// Runs `body` in one read transaction with the transaction's read methods: a consistent
    /// view of one board that loads only what `body` asks for (unlike ``snapshot(board:)``,
    /// which loads everything). - Throws: ``StoreError/unknownBoard(_:)``.
    public func read<T>(board: String = BoardStore.defaultBoardID, _ body: (BoardTransaction) throws -> T) throws -> T {
        try engine.read { db in
            try body(BoardTransaction(db: db, boardID: board, baseVersion: StoreQueries.version(db, board: board)))
        }
    }
}
