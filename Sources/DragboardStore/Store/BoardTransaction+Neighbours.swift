import Dragboard

extension BoardTransaction {
    /// How many top-level rows `listID` has.
    public func rowCount(in listID: String) throws -> Int {
        try rowCount(listID, nil)
    }

    /// The display index of a top-level row of `listID`, or nil if it is not one (any more).
    public func index(of id: String, in listID: String) throws -> Int? {
        if db.remembered(StoreQueries.itemKey(id), as: ItemRecord?.self) == nil {
            try Self.readPlacedRow(id, inList: listID, db)
        }
        guard let item = try StoreQueries.item(db, id), item.listID == listID, item.containerID == nil else { return nil }
        return try displayIndex(of: item)
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

    /// Where ``displayIndex(of:)`` keeps a row's index (an `Int`).
    static func indexKey(_ item: ItemRecord) -> MemoKey {
        MemoKey("index \(item.id)\u{1F}\(item.listID)\u{1F}\(item.containerID ?? "")\u{1F}\(item.pos)")
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
    static let scope = "listID = ? AND containerID IS ?"

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
