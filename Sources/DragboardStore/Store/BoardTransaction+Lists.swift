import Dragboard

extension BoardTransaction {
    /// Adds a list at the end of this board.
    /// - Throws: ``StoreError/invalid(_:)`` when the id is taken (on any board).
    public func addList(_ list: ListRecord) throws -> ListRecord {
        try atomically {
            guard try StoreQueries.board(ofList: list.id, db) == nil else { throw StoreError.invalid("list \(list.id) already exists") }
            let last = try db.fetchOne(Int.self, sql: "SELECT MAX(position) FROM list WHERE boardID = ?", arguments: [boardID])
            var added = list
            added.position = (last ?? -1) + 1
            try db.execute(sql: "INSERT INTO list (id, title, kind, position, boardID) VALUES (?, ?, ?, ?, ?)",
                           arguments: [added.id, added.title, added.kind, added.position, boardID])
            if journal.isRecording { journal.append(.list(before: nil, after: try listState(added.id))) }
            return added
        }
    }

    /// Renames a list of this board (no write if the title is unchanged).
    /// - Throws: ``StoreError/unknownList(_:)``, also for a list of another board.
    public func renameList(_ listID: String, _ title: String) throws {
        try StoreQueries.requireList(db, listID, board: boardID)
        let before = try journal.isRecording ? listState(listID) : nil
        try db.execute(sql: "UPDATE list SET title = ? WHERE id = ? AND title <> ?", arguments: [title, listID, title])
        if journal.isRecording, db.changesCount > 0 { journal.append(.list(before: before, after: try listState(listID))) }
    }

    /// Deletes a list of this board with its rows (the foreign key cascades).
    /// - Throws: ``StoreError/unknownList(_:)``, also for a list of another board.
    public func deleteList(_ listID: String) throws {
        try StoreQueries.requireList(db, listID, board: boardID)
        try journalListDeletion(listID)
        try db.execute(sql: "DELETE FROM list WHERE id = ?", arguments: [listID])
    }
}

extension BoardTransaction {
    /// The item with this id if it sits on this board.
    /// - Throws: ``StoreError/unknownItem(_:)``, also for an item of another board.
    public func itemOnBoard(_ id: String) throws -> ItemRecord {
        let item = try StoreQueries.requireItem(db, id)
        guard try StoreQueries.board(ofList: item.listID, db, likely: boardID) == boardID else { throw StoreError.unknownItem(id) }
        return item
    }
}

extension BoardTransaction {
    /// Moves lists of this board so they sit consecutively, in the given order, before the list
    /// now at `index` (counted without them); the board's lists are renumbered (a board has few).
    /// - Throws: ``StoreError/unknownList(_:)``, ``StoreError/indexOutOfRange(_:count:)``.
    public func moveLists(_ ids: [String], to index: Int) throws {
        try atomically {
            for id in ids { try StoreQueries.requireList(db, id, board: boardID) }
            let original = try lists().map(\.id)
            var order = original.filter { !ids.contains($0) }
            guard (0...order.count).contains(index) else { throw StoreError.indexOutOfRange(index, count: order.count) }
            order.insert(contentsOf: ids, at: index)
            let update = db.cachedStatement(sql: "UPDATE list SET position = ? WHERE id = ? AND position <> ?")
            for (position, id) in order.enumerated() { try update.execute(arguments: [position, id, position]) }
            if order != original { journal.append(.listOrder(board: boardID, before: original, after: order)) }
        }
    }
}
