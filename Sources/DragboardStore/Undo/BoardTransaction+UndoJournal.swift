import Dragboard

extension BoardTransaction {
    /// Records this operation in `owner`'s undo history under `actionName` ("Move Milk"),
    /// like `UndoManager.setActionName(_:)`. Call it before the changes (what happened before is
    /// read as the operation goes); calling it again only renames the action. `owner` is an
    /// opaque browser or user identity; an operation that changes nothing records nothing.
    public func recordUndo(for owner: String, actionName: String) {
        journal.owner = owner
        journal.actionName = actionName
    }

    /// A row with the ids of its neighbours in its list or container, as it is now.
    func itemState(_ id: String) throws -> UndoItemState? {
        guard let item = try StoreQueries.item(db, id) else { return nil }
        let gap = Gap(listID: item.listID, containerID: item.containerID)
        let around = try bounds(around: OrderBound(pos: item.pos, id: item.id), in: gap)
        return UndoItemState(record: item, previous: around.before?.id, next: around.after?.id)
    }

    /// A list with its board and the lists beside it, as it is now.
    func listState(_ id: String) throws -> UndoListState? {
        guard let row = try db.row(sql: "SELECT id, title, kind, position, boardID FROM list WHERE id = ?", arguments: [id]) else { return nil }
        let board: String = row[4]
        let order = try StoreQueries.lists(db, board: board).map(\.id)
        let index = order.firstIndex(of: id)
        return UndoListState(record: ListRecord(id: row[0], title: row[1], kind: row[2], position: row[3]), board: board,
                             previous: index.flatMap { $0 > 0 ? order[$0 - 1] : nil },
                             next: index.flatMap { $0 + 1 < order.count ? order[$0 + 1] : nil })
    }

    func imageState(_ id: String) throws -> UndoImageState? {
        guard let record = try image(id) else { return nil }
        let version = try db.fetchOne(Int.self, sql: "SELECT createdVersion FROM zoneImage WHERE id = ?", arguments: [id]) ?? newVersion
        return UndoImageState(record: record, createdVersion: version)
    }

    /// New rows (and, for copies of containers, their contents): parents before children, so
    /// undo (which runs backwards) removes children first.
    func journalInsertion(of ids: [String]) throws {
        guard journal.isRecording else { return }
        for id in ids {
            for item in [try StoreQueries.requireItem(db, id)] + (try descendants(of: id)) {
                journal.append(.item(before: nil, after: try itemState(item.id)))
            }
        }
    }

    /// Rows about to be deleted with their contents: children before parents, so undo (which
    /// runs backwards) restores parents first. Read before anything is deleted, so every row
    /// keeps the neighbours it had.
    func journalDeletion(of ids: [String]) throws {
        guard journal.isRecording else { return }
        var changes: [UndoChange] = []
        for id in ids {
            let subtree = [try StoreQueries.requireItem(db, id)] + (try descendants(of: id))
            changes += try subtree.reversed().map { .item(before: try itemState($0.id), after: nil) }
        }
        changes.forEach(journal.append)
    }

    /// A list about to be deleted with its rows: undo brings back the list, then its rows in order.
    func journalListDeletion(_ listID: String) throws {
        guard journal.isRecording, let state = try listState(listID) else { return }
        try journalDeletion(of: try StoreQueries.rows(db, listID: listID, containerID: nil).reversed().map(\.id))
        journal.append(.list(before: state, after: nil))
    }
}
