import Foundation

/// What people do to a board besides dragging — add, rename and delete the board, its lists and
/// rows, remove an image — as the domain decides it: each returns what changed and the words for
/// it, run on the board inside the edit's transaction.
package struct BoardEdits {
    /// What an edit did: the changes every viewer hears of, the sentence for whoever edited, and
    /// the stored images it forgot (their files go once the edit committed).
    package struct Edited: Sendable, Equatable {
        package var changes: [BoardChange]
        package var message: String
        package var forgottenImages: [String] = []
    }

    let kit: BoardKit
    /// Makes the id of a new list.
    let newID: () -> String

    package init(kit: BoardKit, newID: @escaping () -> String) {
        self.kit = kit
        self.newID = newID
    }

    /// Adds a list of a registered kind at the end of the board.
    package func addList(title: String, kind: String, on board: some BoardEditing) throws -> Edited {
        guard let listKind = kit.listKind(kind) else { throw DragboardError.badRequest("unknown list kind \(kind); choose one of the offered kinds") }
        let list = try board.addList(ListRecord(id: newID(), title: title, kind: listKind.id, position: 0))
        return Edited(changes: [BoardChange(kind: .resync, item: list.id, list: list.id)], message: "Added the list \(title).")
    }

    /// Adds a row titled `title` at the end of a list, made by the list's kind.
    package func addItem(title: String, list listID: String, on board: some BoardEditing) throws -> Edited {
        guard let list = try board.lists().first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID)") }
        var item = try kit.listKind(list.kind)?.newItem(from: title, in: list) ?? NewItem(kind: "text", title: title)
        item.id = nil
        guard let id = try board.insert([item], at: Placement(listID: list.id)).first else { throw DragboardError.unprocessable("nothing was added") }
        return Edited(changes: [BoardChange(kind: .insert, item: id, list: list.id, after: try board.predecessor(of: id))],
                      message: "Added \(title) to \(list.title).")
    }

    package func renameBoard(to title: String, on board: some BoardEditing) throws -> Edited {
        try board.renameBoard(title)
        return Edited(changes: [BoardChange(kind: .title, item: try board.board().id)], message: "Renamed the board to \(title).")
    }

    /// Deletes the board with everything on it; its viewers are sent to the index.
    package func deleteBoard(on board: some BoardEditing) throws -> Edited {
        let record = try board.board()
        let images = try board.lists().flatMap { try board.imagesShown(inList: $0.id) }
        try board.deleteBoard()
        return Edited(changes: [BoardChange(kind: .gone, item: record.id)], message: "Deleted the board \(record.title).",
                      forgottenImages: try board.forgetUnshownImages(images, zoneID: ZoneImageRecord.listImagesZone))
    }

    package func renameList(_ listID: String, to title: String, on board: some BoardEditing) throws -> Edited {
        try board.renameList(listID, title)
        return Edited(changes: [BoardChange(kind: .resync, item: listID, list: listID)], message: "Renamed the list to \(title).")
    }

    /// Deletes a list with its rows.
    package func deleteList(_ listID: String, on board: some BoardEditing) throws -> Edited {
        guard let list = try board.lists().first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID); it may have been deleted") }
        let images = try board.imagesShown(inList: listID)
        try board.deleteList(listID)
        return Edited(changes: [BoardChange(kind: .resync, item: listID, list: listID)], message: "Deleted the list \(list.title).",
                      forgottenImages: try board.forgetUnshownImages(images, zoneID: ZoneImageRecord.listImagesZone))
    }

    /// Moves a list to `index` among the board's lists (counted without it): what the list's menu
    /// and the page without JavaScript offer besides dragging its header.
    package func moveList(_ listID: String, to index: Int, on board: some BoardEditing) throws -> Edited {
        let lists = try board.lists()
        guard let list = lists.first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID); it may have been deleted") }
        guard (0..<lists.count).contains(index) else {
            throw DragboardError.badRequest("a list's place is 1 to \(lists.count); this board has \(lists.count) list\(lists.count == 1 ? "" : "s")")
        }
        try board.moveLists([listID], to: index)
        return Edited(changes: [BoardChange(kind: .resync, item: BoardKit.listsTargetID)], message: "Moved the list \(list.title) to place \(index + 1).")
    }

    /// Orders a list's rows by title (A to Z, as people read them) or by due date (soonest first,
    /// undated last), as one change: every row that moves is one undoable move.
    package func sortList(_ listID: String, by key: String, on board: some BoardEditing) throws -> Edited {
        guard let list = try board.lists().first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID); it may have been deleted") }
        let rows = try board.topRows(in: listID)
        guard rows.count <= Self.maximumSortedRows else {
            throw DragboardError.unprocessable("a list of more than \(Self.maximumSortedRows.formatted()) cards is not sorted at once")
        }
        let sorted: [ItemRecord]
        switch key {
        case "title":
            sorted = rows.sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending }
        case "due":
            let due = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, CardDetails.of(payload: $0.payload).due ?? "9999-99-99") })
            sorted = rows.enumerated().sorted { (due[$0.element.id]!, $0.offset) < (due[$1.element.id]!, $1.offset) }.map(\.element)
        default:
            throw DragboardError.badRequest("a list is sorted by title or by due date (by=title or by=due)")
        }
        guard sorted.map(\.id) != rows.map(\.id) else {
            return Edited(changes: [], message: "The list \(list.title) was already in that order.")
        }
        try board.move(sorted.map(\.id), to: Placement(listID: listID, index: 0))
        return Edited(changes: [BoardChange(kind: .resync, item: listID, list: listID)], message: "Sorted the list \(list.title) by \(key == "due" ? "due date" : "title").")
    }

    static let maximumSortedRows = 5_000

    package func renameItem(_ itemID: String, to title: String, on board: some BoardEditing) throws -> Edited {
        let item = try board.itemOnBoard(itemID)
        try board.setTitle(itemID, title)
        return Edited(changes: [BoardChange(kind: .replace, item: itemID, list: item.listID)], message: "Renamed \(item.title) to \(title).")
    }

    /// Deletes a row (a container with its contents); a row inside a container shows the container again.
    package func deleteItem(_ itemID: String, on board: some BoardEditing) throws -> Edited {
        let item = try board.itemOnBoard(itemID)
        let image = BoardItem(item).payload(as: CardPayload.self)?.image
        try board.delete([itemID])
        let forgotten = try board.forgetUnshownImages(image.map { [$0] } ?? [], zoneID: ZoneImageRecord.listImagesZone)
        guard let container = item.containerID else {
            return Edited(changes: [BoardChange(kind: .remove, item: itemID)], message: "Deleted \(item.title).", forgottenImages: forgotten)
        }
        return Edited(changes: [BoardChange(kind: .replace, item: container, list: try board.item(container).listID)],
                      message: "Deleted \(item.title).", forgottenImages: forgotten)
    }

    /// Removes an image from a zone of the board.
    package func removeImage(_ imageID: String, on board: some BoardEditing) throws -> Edited {
        guard board.hasZones, let image = try board.image(imageID), let zone = kit.zone(image.zoneID) else {
            throw DragboardError.notFound("unknown image \(imageID); it may have been removed")
        }
        try board.removeImage(imageID)
        return Edited(changes: [BoardChange(kind: .zone, item: zone.id)], message: "Removed the image \(image.name).")
    }
}
