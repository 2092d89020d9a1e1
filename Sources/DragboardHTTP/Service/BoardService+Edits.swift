import Dragboard
import DragboardStore
import Foundation
import JSONWriting

/// What people do to a board besides dragging: add, rename and delete boards, lists and rows,
/// and remove images. Each is one store operation (one transaction, the board's version +1,
/// idempotent by `op`), and its changes reach every viewer of the board like a drop's.
extension BoardService {
    /// An edit's answer: the board's version after it and what changed, as a drop answers.
    struct EditResponse: Decodable, Equatable {
        var version: Int
        var changes: [BoardAPI.Change]
        var message: String
        /// Where a browser without JavaScript goes next.
        var location: String
        /// Each list's row count after the change (see ``BoardService/counts(_:tx:)``).
        var counts: [String: Int]? = nil
    }

    /// The edits as the domain decides them.
    private var edits: BoardEdits { BoardEdits(kit: kit, newID: Self.newID) }

    /// Adds a list of a registered kind at the end of the board.
    func addList(board: String, title: String, kind: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("new-list", board, title, kind)) { tx in
            try edits.addList(title: title, kind: kind, on: tx)
        }
    }

    /// Adds a row titled `title` at the end of a list of the board, made by the list's kind.
    func addItem(board: String, list listID: String, title: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("new-item", board, listID, title)) { tx in
            try edits.addItem(title: title, list: listID, on: tx)
        }
    }

    /// Renames the board.
    func renameBoard(board: String, title: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("rename-board", board, title)) { tx in
            try edits.renameBoard(to: title, on: tx)
        }
    }

    /// Deletes the board with everything on it; its viewers are sent to the index.
    func deleteBoard(board: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        guard board != BoardStore.defaultBoardID else {
            throw DragboardError.conflict("the default board cannot be deleted; rename it or make a board of your own")
        }
        let response = try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("delete-board", board), location: "/") { tx in
            try edits.deleteBoard(on: tx)
        }
        renderCache.forget(board: board)
        return response
    }

    /// Renames a list of the board.
    func renameList(board: String, list listID: String, title: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("rename-list", board, listID, title)) { tx in
            try edits.renameList(listID, to: title, on: tx)
        }
    }

    /// Deletes a list of the board with its rows.
    func deleteList(board: String, list listID: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("delete-list", board, listID)) { tx in
            try edits.deleteList(listID, on: tx)
        }
    }

    /// Moves a list of the board to `index` (from its list menu, or a page without JavaScript).
    func moveList(board: String, list listID: String, index: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        guard let position = Int(index) else { throw DragboardError.badRequest("a list's place is a whole number") }
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("move-list", board, listID, index)) { tx in
            try edits.moveList(listID, to: position, on: tx)
        }
    }

    /// Sorts a list's rows `by` title or due date.
    func sortList(board: String, list listID: String, by key: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("sort-list", board, listID, key)) { tx in
            try edits.sortList(listID, by: key, on: tx)
        }
    }

    /// Renames a row of the board.
    func renameItem(board: String, item itemID: String, title: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("rename-item", board, itemID, title)) { tx in
            try edits.renameItem(itemID, to: title, on: tx)
        }
    }

    /// Deletes a row of the board (with a container's contents).
    func deleteItem(board: String, item itemID: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("delete-item", board, itemID)) { tx in
            try edits.deleteItem(itemID, on: tx)
        }
    }

    /// Removes an image from a zone of the board (its file goes once the removal is committed).
    func removeImage(board: String, image imageID: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        let response = try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("remove-image", board, imageID)) { tx in
            try edits.removeImage(imageID, on: tx)
        }
        retireImageFile(imageID)
        return response
    }

    /// Deletes the files of images the store forgot, once the edit that forgot them committed.
    private func removeImageFiles(_ ids: [String]) {
        for id in ids { retireImageFile(id) }
    }

    /// Runs one edit as a store operation, recorded in `author`'s history, and tells the
    /// board's viewers what changed (the rows and zones it names rendered in the transaction).
    /// The files of images it forgot go once it committed.
    func edit(board: String, op: String, author: ChangeAuthor?, fingerprint: String, location: String? = nil,
                      _ body: (BoardTransaction) throws -> BoardEdits.Edited) throws -> EditResponse {
        let location = location ?? "/boards/\(board)"
        var changed = false
        var forgotten: [String] = []
        var told: String?
        let result = try store.perform(board: board, operationID: op, fingerprint: fingerprint) { tx in
            if let author { tx.recordUndo(for: author.undoOwner, actionName: "") }
            let edited = try body(tx)
            if let author {
                tx.recordUndo(for: author.undoOwner, actionName: Self.actionName(edited.message))
                told = Activity.words(of: author.name, edited.message)
                tx.recordActivity(by: author.name, told ?? "")
            }
            changed = tx.hasChanges
            forgotten = edited.forgottenImages
            let changes = try edited.changes.map { try shown($0, tx: tx) }
            return EditResponse(version: tx.resultingVersion, changes: changed ? changes : [],
                                message: changed ? edited.message : "Nothing changed.", location: location,
                                counts: changed ? try counts(changes, tx: tx) : nil).jsonString
        }
        removeImageFiles(forgotten)
        if changed {
            live.broadcast(event: "changes", board: board, version: result.version, json: result.response)
            if let author, let told { tellActivity(board: board, version: result.version, author: author.name, words: told) }
        }
        return try JSONDecoder().decode(EditResponse.self, from: Data(result.response.utf8))
    }

    /// A change as the page takes it: the row it inserts or shows again, or the zone, rendered as
    /// it is in `tx`; a new board title as its text.
    /// A domain change as the page gets it: with the HTML of the row, zone or title it names.
    func shown(_ change: BoardChange, tx: BoardTransaction) throws -> BoardAPI.Change {
        var shown = BoardAPI.Change(change)
        switch change.kind {
        case .insert, .replace:
            let item = try tx.item(change.item)
            shown.html = renderer.row(item, contents: try contents(of: item, tx: tx), labels: try labels(for: [item], tx: tx))
        case .zone:
            guard let zone = kit.zone(change.item) else { break }
            shown.html = renderer.zone(try ZoneView(zone, tx))
        case .title:
            shown.html = try tx.board().title
        case .remove, .resync, .gone:
            break
        }
        return shown
    }

    private func contents(of item: ItemRecord, tx: BoardTransaction) throws -> [ItemRecord] {
        kit.isContainer(item.kind) ? try tx.rows(in: item.listID, container: item.id) : []
    }
}
