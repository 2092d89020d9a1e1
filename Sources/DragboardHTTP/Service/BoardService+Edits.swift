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

    /// Adds a list of a registered kind at the end of the board.
    func addList(board: String, title: String, kind: String, op: String, undoOwner: String?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        guard let listKind = kit.listKind(kind) else { throw DragboardError.badRequest("unknown list kind \(kind); choose one of the offered kinds") }
        return try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("new-list", board, title, kind)) { tx in
            let list = try tx.addList(ListRecord(id: Self.newID(), title: title, kind: listKind.id, position: 0))
            return ([.init(kind: .resync, item: list.id, list: list.id)], "Added the list \(title).")
        }
    }

    /// Adds a row titled `title` at the end of a list of the board, made by the list's kind.
    func addItem(board: String, list listID: String, title: String, op: String, undoOwner: String?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("new-item", board, listID, title)) { tx in
            guard let list = try tx.lists().first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID)") }
            var item = try kit.listKind(list.kind)?.newItem(from: title, in: list) ?? NewItem(kind: "text", title: title)
            item.id = nil
            guard let id = try tx.insert([item], at: Placement(listID: list.id)).first else { throw DragboardError.unprocessable("nothing was added") }
            return ([try insertChange(id, tx: tx)], "Added \(title) to \(list.title).")
        }
    }

    /// Renames the board.
    func renameBoard(board: String, title: String, op: String, undoOwner: String?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("rename-board", board, title)) { tx in
            try tx.renameBoard(title)
            return ([.init(kind: .title, item: board, html: title)], "Renamed the board to \(title).")
        }
    }

    /// Deletes the board with everything on it; its viewers are sent to the index.
    func deleteBoard(board: String, op: String, undoOwner: String?) throws -> EditResponse {
        guard board != BoardStore.defaultBoardID else {
            throw DragboardError.conflict("the default board cannot be deleted; rename it or make a board of your own")
        }
        var forgotten: [String] = []
        let response = try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("delete-board", board), location: "/") { tx in
            let title = try tx.board().title
            let images = try tx.lists().flatMap { try tx.imagesShown(inList: $0.id) }
            try tx.deleteBoard()
            forgotten = try tx.forgetUnshownImages(images, zoneID: Self.listImagesZone)
            return ([.init(kind: .gone, item: board)], "Deleted the board \(title).")
        }
        removeImageFiles(forgotten)
        renderCache.forget(board: board)
        return response
    }

    /// Renames a list of the board.
    func renameList(board: String, list listID: String, title: String, op: String, undoOwner: String?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("rename-list", board, listID, title)) { tx in
            try tx.renameList(listID, title)
            return ([.init(kind: .resync, item: listID, list: listID)], "Renamed the list to \(title).")
        }
    }

    /// Deletes a list of the board with its rows.
    func deleteList(board: String, list listID: String, op: String, undoOwner: String?) throws -> EditResponse {
        var forgotten: [String] = []
        let response = try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("delete-list", board, listID)) { tx in
            guard let list = try tx.lists().first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID); it may have been deleted") }
            let images = try tx.imagesShown(inList: listID)
            try tx.deleteList(listID)
            forgotten = try tx.forgetUnshownImages(images, zoneID: Self.listImagesZone)
            return ([.init(kind: .resync, item: listID, list: listID)], "Deleted the list \(list.title).")
        }
        removeImageFiles(forgotten)
        return response
    }

    /// Renames a row of the board.
    func renameItem(board: String, item itemID: String, title: String, op: String, undoOwner: String?) throws -> EditResponse {
        let title = try Self.checkedTitle(title)
        return try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("rename-item", board, itemID, title)) { tx in
            let item = try tx.itemOnBoard(itemID)
            try tx.setTitle(itemID, title)
            let renamed = try tx.item(itemID)
            return ([.init(kind: .replace, item: itemID, list: item.listID, html: renderer.row(renamed, contents: try contents(of: renamed, tx: tx)))],
                    "Renamed \(item.title) to \(title).")
        }
    }

    /// Deletes a row of the board (with a container's contents).
    func deleteItem(board: String, item itemID: String, op: String, undoOwner: String?) throws -> EditResponse {
        var forgotten: [String] = []
        let response = try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("delete-item", board, itemID)) { tx in
            let item = try tx.itemOnBoard(itemID)
            let image = BoardItem(item).payload(as: CardPayload.self)?.image
            try tx.delete([itemID])
            forgotten = try tx.forgetUnshownImages(image.map { [$0] } ?? [], zoneID: Self.listImagesZone)
            guard let container = item.containerID else { return ([.init(kind: .remove, item: itemID)], "Deleted \(item.title).") }
            let holder = try tx.item(container)
            return ([.init(kind: .replace, item: container, list: holder.listID, html: renderer.row(holder, contents: try contents(of: holder, tx: tx)))],
                    "Deleted \(item.title).")
        }
        removeImageFiles(forgotten)
        return response
    }

    /// Removes an image from a zone of the board (its file goes once the removal is committed).
    func removeImage(board: String, image imageID: String, op: String, undoOwner: String?) throws -> EditResponse {
        let response = try edit(board: board, op: op, undoOwner: undoOwner, fingerprint: Self.fingerprint("remove-image", board, imageID)) { tx in
            guard tx.hasZones, let image = try tx.image(imageID), let zone = kit.zone(image.zoneID) else {
                throw DragboardError.notFound("unknown image \(imageID); it may have been removed")
            }
            try tx.removeImage(imageID)
            return ([.init(kind: .zone, item: zone.id, html: renderer.zone(try ZoneView(zone, tx)))], "Removed the image \(image.name).")
        }
        retireImageFile(imageID)
        return response
    }

    /// Deletes the files of images the store forgot, once the edit that forgot them committed.
    private func removeImageFiles(_ ids: [String]) {
        for id in ids { retireImageFile(id) }
    }

    /// Runs one edit as a store operation, recorded in `undoOwner`'s history, and tells the
    /// board's viewers what changed.
    private func edit(board: String, op: String, undoOwner: String?, fingerprint: String, location: String? = nil,
                      _ body: (BoardTransaction) throws -> ([BoardAPI.Change], String)) throws -> EditResponse {
        let location = location ?? "/boards/\(board)"
        var changed = false
        let result = try store.perform(board: board, operationID: op, fingerprint: fingerprint) { tx in
            if let undoOwner { tx.recordUndo(for: undoOwner, actionName: "") }
            let (changes, message) = try body(tx)
            if let undoOwner { tx.recordUndo(for: undoOwner, actionName: Self.actionName(message)) }
            changed = tx.hasChanges
            return EditResponse(version: tx.resultingVersion, changes: changed ? changes : [],
                                message: changed ? message : "Nothing changed.", location: location,
                                counts: changed ? try counts(changes, tx: tx) : nil).jsonString
        }
        if changed { live.broadcast(event: "changes", board: board, version: result.version, json: result.response) }
        return try JSONDecoder().decode(EditResponse.self, from: Data(result.response.utf8))
    }

    private func insertChange(_ id: String, tx: BoardTransaction) throws -> BoardAPI.Change {
        let item = try tx.item(id)
        return .init(kind: .insert, item: id, list: item.listID, after: try tx.predecessor(of: id),
                     html: renderer.row(item, contents: try contents(of: item, tx: tx)))
    }

    private func contents(of item: ItemRecord, tx: BoardTransaction) throws -> [ItemRecord] {
        kit.isContainer(item.kind) ? try tx.rows(in: item.listID, container: item.id) : []
    }
}
