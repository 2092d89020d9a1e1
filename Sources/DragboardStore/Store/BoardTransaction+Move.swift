import Dragboard

extension BoardTransaction {
    /// Moves existing items (in the given order, landing consecutively) to the
    /// placement.
    ///
    /// Each item keeps its identity: one UPDATE of its own row (`listID`,
    /// `containerID`, `pos`, `changedVersion`), never delete + re-insert. Items
    /// being moved are ignored as neighbours. Moving a container to another list
    /// also updates its contents' `listID`. Items already consecutive in that
    /// gap in that order are left untouched (a no-op move writes nothing).
    ///
    /// - Throws: ``StoreError/unknownItem(_:)``, ``StoreError/unknownList(_:)``,
    ///   ``StoreError/indexOutOfRange(_:count:)``, ``StoreError/conflict(_:)``,
    ///   ``StoreError/invalid(_:)`` (duplicate ids, or a container moved into itself).
    public func move(_ ids: [String], to placement: Placement) throws {
        guard !ids.isEmpty else { return }
        let moving = Set(ids)
        guard moving.count == ids.count else { throw StoreError.invalid("duplicate ids in move") }
        try atomically {
            var items = try ids.map { try StoreQueries.requireItem(db, $0) }
            // The board of each list the rows leave, looked up once. Rows taken from another board:
            // hold that board as its own writers do, then read them again, so a writer of that board
            // (another instance, say) never changes them meanwhile.
            var boardOfList: [String: String] = [:]
            for item in items where item.listID != placement.listID && boardOfList[item.listID] == nil {
                boardOfList[item.listID] = try StoreQueries.board(ofList: item.listID, db, likely: boardID)
            }
            let otherBoards = Set(boardOfList.values).subtracting([boardID])
            if !otherBoards.isEmpty {
                for other in otherBoards.sorted() { try db.lock(board: other) }
                items = try ids.map { try StoreQueries.requireItem(db, $0) }
            }
            let gap = try resolve(placement, moving: moving)
            if let containerID = placement.containerID {
                try requireOutside(moving, container: containerID)
            }
            if isInPlace(items, gap) { return }
            let before = try journal.isRecording ? ids.map { try itemState($0) } : []
            let lists = db.remembered(StoreQueries.listsKey(boardID), as: [ListRecord].self)
            let counts = db.remembered(StoreQueries.listCountsKey(boardID), as: [StoreQueries.ListCount].self)
            let rebalanced = rebalancedRows.total
            let unwritten = db.totalChangesCount
            let keys = try orderKeys(for: gap, count: items.count, moving: moving)
            for (item, key) in zip(items, keys) {
                if item.listID != gap.listID,
                   let board = try boardOfList[item.listID] ?? StoreQueries.board(ofList: item.listID, db, likely: boardID), board != boardID {
                    departures.record(item.id, from: board)
                }
                // `containerID` is set only when it changes: SQLite rewrites an index whose column is
                // assigned even to the same value, and checking the row's own foreign key to `item` also
                // rewrites the page of `item`'s primary key (two of a drop's 19 log pages).
                let changesContainer = item.containerID != gap.containerID
                if item.listID != gap.listID {
                    // The row and everything nested in it change lists in one statement (one round trip).
                    if changesContainer {
                        try db.cachedStatement(sql: Self.moveAcrossIntoContainer)
                            .execute(arguments: [item.id, gap.listID, item.id, gap.containerID, item.id, key, newVersion])
                    } else {
                        try db.cachedStatement(sql: Self.moveAcross).execute(arguments: [item.id, gap.listID, item.id, key, newVersion])
                    }
                } else if changesContainer {
                    // Within a list, one row: PostgreSQL sends it with the operation's bookkeeping.
                    try db.executeSoon(SQLWrite("UPDATE item SET containerID = ?, pos = ?, changedVersion = ? WHERE id = ?",
                                                [gap.containerID, key, newVersion, item.id]))
                } else {
                    try db.executeSoon(SQLWrite("UPDATE item SET pos = ?, changedVersion = ? WHERE id = ?", [key, newVersion, item.id]))
                }
            }
            // The rows written (a rebalance's too) are those of the lists left and entered: what this
            // transaction knows of other lists holds. Within a list, with no rebalance, they are the
            // moved rows alone: the others of that list are as they were (where they stand in it is not).
            let named = rebalancedRows.total == rebalanced && items.allSatisfy { $0.listID == gap.listID }
            // Each list's count of top-level rows follows the rows that left or joined its top level
            // (nested rows moving with their container stay nested).
            var countChanges: [String: Int] = [:]
            for item in items {
                if item.containerID == nil { countChanges[item.listID, default: 0] -= 1 }
                if gap.containerID == nil { countChanges[gap.listID, default: 0] += 1 }
            }
            db.memo.carry(from: unwritten, to: db.totalChangesCount,
                          sparing: RowWrite(lists: items.map(\.listID) + [gap.listID], kinds: items.map(\.kind), rows: named ? ids : nil, counts: countChanges))
            // A rebalance re-keyed the rows around the gap: then their keys are not the gap's.
            if rebalancedRows.total == rebalanced { rememberNeighbours(of: zip(items, keys).map { OrderBound(pos: $1, id: $0.id) }, in: gap) }
            // The answer shows the counts.
            if let lists, var counts {
                for index in counts.indices { counts[index].count += countChanges[counts[index].list] ?? 0 }
                db.remember(lists, for: StoreQueries.listsKey(boardID), .board(boardID))
                StoreQueries.remember(counts, of: boardID, db)
            }
            // What the rows hold now is what was just written (a container's relisting leaves its own row
            // alone): the undo journal and the answer need not read them again.
            for (item, key) in zip(items, keys) {
                var moved = item
                (moved.listID, moved.containerID, moved.pos, moved.changedVersion) = (gap.listID, gap.containerID, key, newVersion)
                StoreQueries.remember(moved, db)
            }
            for (id, state) in zip(ids, before) { journal.append(.item(before: state, after: try itemState(id))) }
            // After the move's own history: undo takes the labels back first, then the move.
            for item in items {
                if let board = boardOfList[item.listID], board != boardID { try carryLabels(of: item.id, from: board) }
            }
        }
    }

    /// A row and everything nested in it to another list, the row into a container there or out of one.
    static let moveAcrossIntoContainer = moveSubtree(settingContainer: true)

    /// A top-level row and everything nested in it to the top level of another list.
    static let moveAcross = moveSubtree(settingContainer: false)

    /// Row `?` and everything nested in it to list `?`; the row alone takes key `?` (and container `?`).
    private static func moveSubtree(settingContainer: Bool) -> String {
        """
        WITH RECURSIVE sub(id) AS (
            SELECT id FROM item WHERE id = ?
            UNION SELECT item.id FROM item JOIN sub ON item.containerID = sub.id
        )
        UPDATE item SET listID = ?,
        \(settingContainer ? "    containerID = CASE WHEN id = ? THEN ? ELSE containerID END,\n" : "")\
            pos = CASE WHEN id = ? THEN ? ELSE pos END,
            changedVersion = ?
        WHERE id IN (SELECT id FROM sub)
        """
    }

    /// Whether the items already sit consecutively, in order, inside the gap.
    func isInPlace(_ items: [ItemRecord], _ gap: Gap) -> Bool {
        var last = gap.prev
        for item in items {
            guard item.listID == gap.listID, item.containerID == gap.containerID else { return false }
            let bound = OrderBound(pos: item.pos, id: item.id)
            if let last, !OrderBound.precedes(last, bound) { return false }
            last = bound
        }
        if let last, let next = gap.next, !OrderBound.precedes(last, next) { return false }
        return true
    }

    /// Throws unless `container` is outside every moving item's subtree.
    func requireOutside(_ moving: Set<String>, container: String) throws {
        var current: String? = container
        var seen: Set<String> = []
        while let id = current, seen.insert(id).inserted {
            if moving.contains(id) { throw StoreError.invalid("cannot move \(id) into itself") }
            current = try StoreQueries.requireItem(db, id).containerID
        }
    }

    /// Sets the list of every item nested (at any depth) in `containerID`.
    func relist(contentsOf containerID: String, to listID: String) throws {
        try db.cachedStatement(sql: """
            WITH RECURSIVE sub(id) AS (
                SELECT id FROM item WHERE containerID = ?
                UNION SELECT item.id FROM item JOIN sub ON item.containerID = sub.id
            )
            UPDATE item SET listID = ?, changedVersion = ? WHERE id IN (SELECT id FROM sub)
            """).execute(arguments: [containerID, listID, newVersion])
    }
}
