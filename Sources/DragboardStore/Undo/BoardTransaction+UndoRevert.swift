import Dragboard

/// Why an undo or redo cannot be applied to the board as it is now (it changed nothing).
struct UndoRefusal: Error {
    var reason: String
}

/// What an undo or redo touched, for telling viewers.
package struct UndoEffects {
    package var items: [String] = []
    /// Containers rows left or entered.
    package var containers: Set<String> = []
    package var lists: Set<String> = []
    package var zones: Set<String> = []
    package var boardTitle: String?
    package var boardGone = false
    /// The board's labels changed: every card wearing one is shown again.
    package var labels = false
    /// Images whose records came back (their files must come back from `removed/`).
    package var restoredImages: [String] = []
    /// Images whose records went (their files go to `removed/`).
    package var removedImages: [String] = []
    /// Rows that came back with a new order key (their old one no longer sorted between their
    /// neighbours): id → (old key, new key). The history's other states of the row learn it.
    var rekeyed: [String: (old: String, new: String)] = [:]

    package init() {}
}

extension BoardTransaction {
    /// Takes the board from each change's one state to its other: from `after` to `before`
    /// (undo, last change first) or from `before` to `after` (redo, in order). Each row must be
    /// exactly in the state it is taken from, or this throws ``UndoRefusal`` with the reason.
    func revert(_ changes: [UndoChange], undo: Bool, imageAvailable: (String) -> Bool) throws -> UndoEffects {
        var effects = UndoEffects()
        for change in undo ? changes.reversed() : changes {
            switch change {
            case .item(let before, let after):
                try revertItem(from: undo ? after : before, to: undo ? before : after, effects: &effects)
            case .list(let before, let after):
                try revertList(from: undo ? after : before, to: undo ? before : after, effects: &effects)
            case .listOrder(let board, let before, let after):
                try revertListOrder(board: board, from: undo ? after : before, to: undo ? before : after, effects: &effects)
            case .board(let before, let after):
                try revertBoard(from: undo ? after : before, to: undo ? before : after, effects: &effects)
            case .image(let before, let after):
                try revertImage(from: undo ? after : before, to: undo ? before : after, imageAvailable: imageAvailable, effects: &effects)
            case .label(let zoneID, let before, let after):
                let expected = undo ? after : before
                guard try label(zoneID) == expected else { throw UndoRefusal(reason: "The label was changed by someone else since") }
                if let text = undo ? before : after { try setLabel(zoneID, text: text) } else {
                    try db.execute(sql: "DELETE FROM zoneLabel WHERE zoneID = ?", arguments: [zoneID])
                }
                effects.zones.insert(zoneID)
            }
        }
        return effects
    }

    // MARK: rows

    private func revertItem(from expected: UndoItemState?, to target: UndoItemState?, effects: inout UndoEffects) throws {
        let id = (expected ?? target)?.record.id ?? ""
        let current = try StoreQueries.item(db, id)
        try requireItem(current, matches: expected)
        effects.items.append(id)
        for container in [current?.containerID, target?.record.containerID].compactMap({ $0 }) { effects.containers.insert(container) }
        guard let target else {
            guard try StoreQueries.contents(db, of: id).isEmpty else {
                throw UndoRefusal(reason: "\(try described(expected?.record)) has had things put into it since")
            }
            try touchBoard(ofList: current?.listID)
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
            return
        }
        if let current, current.listID == target.record.listID, current.containerID == target.record.containerID, current.pos == target.record.pos {
            try db.execute(sql: "UPDATE item SET kind = ?, title = ?, payload = ?, changedVersion = ? WHERE id = ?",
                           arguments: [target.record.kind, target.record.title, target.record.payload, newVersion, id])
            return
        }
        let placed = try returnPlace(target, skipping: current == nil ? [] : [id])
        var row = target.record
        row.pos = placed
        if placed != target.record.pos { effects.rekeyed[id] = (target.record.pos, placed) }
        row.changedVersion = newVersion
        try touchBoard(ofList: row.listID)
        guard let current else { return try insertRow(row) }
        try touchBoard(ofList: current.listID)
        if let container = row.containerID { try requireOutside([id], container: container) }
        try db.execute(sql: """
            UPDATE item SET listID = ?, containerID = ?, pos = ?, kind = ?, title = ?, payload = ?, changedVersion = ? WHERE id = ?
            """, arguments: [row.listID, row.containerID, row.pos, row.kind, row.title, row.payload, newVersion, id])
        if current.listID != row.listID { try relist(contentsOf: id, to: row.listID) }
    }

    private func requireItem(_ current: ItemRecord?, matches expected: UndoItemState?) throws {
        guard let expected else {
            guard let current else { return }
            throw UndoRefusal(reason: "\(try described(current)) is already there")
        }
        let wanted = expected.record
        guard let current else { throw UndoRefusal(reason: "\(try described(wanted)) was deleted by someone else since") }
        if current.listID != wanted.listID || current.containerID != wanted.containerID || current.pos != wanted.pos {
            throw UndoRefusal(reason: "\(try described(wanted)) was moved by someone else since")
        }
        if current.title != wanted.title { throw UndoRefusal(reason: "\(try described(wanted)) was renamed by someone else since") }
        if current.payload != wanted.payload || current.kind != wanted.kind {
            throw UndoRefusal(reason: "\(try described(wanted)) was edited by someone else since")
        }
    }

    /// "“Milk” in Done": the row by its title and the list it was in.
    func described(_ item: ItemRecord?) throws -> String {
        guard let item else { return "The row" }
        let list = try db.fetchOne(String.self, sql: "SELECT title FROM list WHERE id = ?", arguments: [item.listID])
        return list.map { "“\(item.title)” in \($0)" } ?? "“\(item.title)”"
    }

    /// The order key a row gets when it returns to `state`'s list or container:
    /// 1. between its old previous and next neighbours when they are still adjacent there
    ///    (with its old key when that still sorts between them);
    /// 2. else right after its old previous neighbour, if that is still there;
    /// 3. else right before its old next neighbour, if that is still there;
    /// 4. else where its old key sorts among the rows there now.
    /// Refuses when the list or the container is gone.
    private func returnPlace(_ state: UndoItemState, skipping: Set<String>) throws -> String {
        let record = state.record
        guard let listTitle = try db.fetchOne(String.self, sql: "SELECT title FROM list WHERE id = ?", arguments: [record.listID]) else {
            throw UndoRefusal(reason: "The list “\(record.title)” was in was deleted by someone else since")
        }
        if let container = record.containerID {
            guard let holder = try StoreQueries.item(db, container), holder.listID == record.listID else {
                throw UndoRefusal(reason: "The container “\(record.title)” was in (in \(listTitle)) was moved or deleted by someone else since")
            }
        }
        var gap = Gap(listID: record.listID, containerID: record.containerID)
        func present(_ id: String?) throws -> OrderBound? {
            guard let id, !skipping.contains(id), let row = try StoreQueries.item(db, id),
                  row.listID == record.listID, row.containerID == record.containerID else { return nil }
            return OrderBound(pos: row.pos, id: row.id)
        }
        let previous = try present(state.previous)
        let next = try present(state.next)
        if (state.previous == nil || previous != nil) && (state.next == nil || next != nil),
           try bound(after: previous, in: gap, skipping: skipping)?.id == next?.id {
            (gap.prev, gap.next) = (previous, next)
        } else if let previous {
            (gap.prev, gap.next) = (previous, try bound(after: previous, in: gap, skipping: skipping))
        } else if let next {
            (gap.prev, gap.next) = (try bound(before: next, in: gap, skipping: skipping), next)
        } else {
            let old = OrderBound(pos: record.pos, id: record.id)
            (gap.prev, gap.next) = (try bound(before: old, in: gap, skipping: skipping), try bound(after: old, in: gap, skipping: skipping))
        }
        // The old key only if it sorts strictly between the keys there now: a row given the same
        // key since (a row inserted into the gap takes its middle) would share it.
        if gap.prev.map({ $0.pos.utf8.lexicographicallyPrecedes(record.pos.utf8) }) ?? true,
           gap.next.map({ record.pos.utf8.lexicographicallyPrecedes($0.pos.utf8) }) ?? true {
            return record.pos
        }
        return try orderKeys(for: gap, count: 1, moving: skipping)[0]
    }

    /// A row on another board changes: that board's version advances too, and its viewers catch up.
    private func touchBoard(ofList listID: String?) throws {
        guard let listID, let board = try StoreQueries.board(ofList: listID, db), board != boardID else { return }
        departures.touch(board)
    }
}
