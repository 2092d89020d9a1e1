import Dragboard

extension BoardTransaction {
    func revertList(from expected: UndoListState?, to target: UndoListState?, effects: inout UndoEffects) throws {
        let id = (expected ?? target)?.record.id ?? ""
        let name = (expected ?? target)?.record.title ?? ""
        let current = try listState(id)
        switch (expected, current) {
        case (nil, nil): break
        case (nil, .some): throw UndoRefusal(reason: "The list “\(name)” is already there")
        case (.some, nil): throw UndoRefusal(reason: "The list “\(name)” was deleted by someone else since")
        case (.some(let expected), .some(let current)):
            guard current.board == expected.board else { throw UndoRefusal(reason: "The list “\(name)” was moved to another board since") }
            guard current.record.title == expected.record.title else { throw UndoRefusal(reason: "The list “\(name)” was renamed by someone else since") }
        }
        effects.lists.insert(id)
        guard let target else {
            guard try db.fetchOne(Int.self, sql: "SELECT 1 FROM item WHERE listID = ? LIMIT 1", arguments: [id]) == nil else {
                throw UndoRefusal(reason: "The list “\(name)” has had rows added since")
            }
            try db.execute(sql: "DELETE FROM list WHERE id = ?", arguments: [id])
            return
        }
        guard current == nil else {
            try db.execute(sql: "UPDATE list SET title = ? WHERE id = ?", arguments: [target.record.title, id])
            return
        }
        guard try db.fetchOne(Int.self, sql: "SELECT 1 FROM board WHERE id = ?", arguments: [target.board]) != nil else {
            throw UndoRefusal(reason: "The board of the list “\(name)” was deleted since")
        }
        try db.execute(sql: "INSERT INTO list (id, title, kind, position, boardID) VALUES (?, ?, ?, ?, ?)",
                       arguments: [id, target.record.title, target.record.kind, target.record.position, target.board])
        // Back beside the lists it was beside, by id: after its old previous list, else before its old next one.
        var order = try StoreQueries.lists(db, board: target.board).map(\.id).filter { $0 != id }
        let index = target.previous.flatMap { order.firstIndex(of: $0).map { $0 + 1 } }
            ?? target.next.flatMap { order.firstIndex(of: $0) }
            ?? min(target.record.position, order.count)
        order.insert(id, at: index)
        try renumber(order)
    }

    func revertListOrder(board: String, from expected: [String], to target: [String], effects: inout UndoEffects) throws {
        let current = try StoreQueries.lists(db, board: board).map(\.id)
        guard current == expected else { throw UndoRefusal(reason: "The lists were rearranged, added or deleted by someone else since") }
        try renumber(target)
        effects.lists.formUnion(target)
    }

    private func renumber(_ order: [String]) throws {
        let update = db.cachedStatement(sql: "UPDATE list SET position = ? WHERE id = ? AND position <> ?")
        for (position, id) in order.enumerated() { try update.execute(arguments: [position, id, position]) }
    }

    func revertBoard(from expected: UndoBoardState?, to target: UndoBoardState?, effects: inout UndoEffects) throws {
        let id = (expected ?? target)?.id ?? ""
        let name = (expected ?? target)?.title ?? ""
        let title = try db.fetchOne(String.self, sql: "SELECT title FROM board WHERE id = ?", arguments: [id])
        if let expected {
            guard let title else { throw UndoRefusal(reason: "The board “\(name)” was deleted by someone else since") }
            guard title == expected.title else { throw UndoRefusal(reason: "The board “\(name)” was renamed by someone else since") }
            if let labels = expected.labels, target != nil,
               try db.fetchOne(String.self, sql: "SELECT labels FROM board WHERE id = ?", arguments: [id]) != labels {
                throw UndoRefusal(reason: "The labels of “\(name)” were changed by someone else since")
            }
        }
        guard let target else {
            guard try db.fetchOne(Int.self, sql: "SELECT 1 FROM list WHERE boardID = ? LIMIT 1", arguments: [id]) == nil else {
                throw UndoRefusal(reason: "The board “\(name)” has had lists added since")
            }
            try db.execute(sql: "DELETE FROM board WHERE id = ?", arguments: [id])
            effects.boardGone = true
            return
        }
        // A board that comes back was inserted before this transaction read its version (see
        // `BoardStore.undo`); here it only gets its title.
        try db.execute(sql: "INSERT INTO board (id, title, version, activity, incarnation) VALUES (?, ?, ?, 0, ?) ON CONFLICT (id) DO NOTHING",
                       arguments: [id, target.title, target.version, BoardMemos.newIncarnation()])
        try db.execute(sql: "UPDATE board SET title = ? WHERE id = ?", arguments: [target.title, id])
        if let color = target.color { try db.execute(sql: "UPDATE board SET color = ? WHERE id = ?", arguments: [color, id]) }
        if let labels = target.labels {
            try db.execute(sql: "UPDATE board SET labels = ? WHERE id = ?", arguments: [labels, id])
            effects.labels = true
        }
        effects.boardTitle = target.title
    }

    func revertImage(from expected: UndoImageState?, to target: UndoImageState?, imageAvailable: (String) -> Bool,
                     effects: inout UndoEffects) throws {
        let record = (expected ?? target)?.record
        let id = record?.id ?? ""
        let exists = try image(id) != nil
        if expected == nil, exists { throw UndoRefusal(reason: "The image “\(record?.name ?? "")” is already there") }
        if expected != nil, !exists { throw UndoRefusal(reason: "The image “\(record?.name ?? "")” was removed by someone else since") }
        effects.zones.insert(record?.zoneID ?? "")
        guard let target else {
            try db.execute(sql: "DELETE FROM zoneImage WHERE id = ?", arguments: [id])
            effects.removedImages.append(id)
            return
        }
        guard imageAvailable(id) else { throw UndoRefusal(reason: "The image “\(target.record.name)” is no longer kept") }
        try db.execute(sql: """
            INSERT INTO zoneImage (id, zoneID, name, mimeType, size, createdVersion) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [id, target.record.zoneID, target.record.name, target.record.mimeType, target.record.size, target.createdVersion])
        effects.restoredImages.append(id)
    }
}
