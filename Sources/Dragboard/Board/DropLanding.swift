import DragAndDrop

/// Where a performed drop's items land, and the words for it: the domain's part of a drop, run
/// on the board inside the drop's transaction. It knows no database and no file: an image a list
/// takes is kept by ``keepImage``, and a zone keeps what it accepted through ``zoneWriter``.
package struct DropLanding {
    /// What a drop landed: the changes every viewer hears of, and the sentence for whoever dropped.
    package struct Landed: Sendable, Equatable {
        package var changes: [BoardChange]
        package var message: String
    }

    let kit: BoardKit
    /// Keeps an uploaded image a list takes (its file and its record, under the image quota).
    let keepImage: (DroppedImage) throws -> StoredImage
    /// The writer zone `id` keeps what its delegate accepted through.
    let zoneWriter: (_ id: String) -> ZoneWriter

    package init(kit: BoardKit, keepImage: @escaping (DroppedImage) throws -> StoredImage, zoneWriter: @escaping (String) -> ZoneWriter) {
        self.kit = kit
        self.keepImage = keepImage
        self.zoneWriter = zoneWriter
    }

    /// Lands `result`'s placements on `board`; a move out of an open container shows that
    /// container again (its count and contents changed).
    package func land(_ result: SessionEngine.DropResult, session: DropSession, on board: some BoardWriting) throws -> Landed {
        let source = try session.dragSource.flatMap { try board.contentsListContainer($0.listID, kit: kit) }
        var landed = try placements(of: result, session: session, on: board)
        if let source, result.proposal.operation == .move, !landed.changes.contains(where: { $0.kind == .replace && $0.item == source.id }) {
            landed.changes.append(try containerChange(source.id, on: board))
        }
        return landed
    }

    private func placements(of result: SessionEngine.DropResult, session: DropSession, on board: some BoardWriting) throws -> Landed {
        let listID: String
        switch result.target {
        case .list(let id) where id == BoardKit.listsTargetID: return try listOrder(result, on: board)
        case .list(let id): listID = id
        case .zone(let zoneID): return try zone(zoneID, result)
        }
        guard let list = try board.lists().first(where: { $0.id == listID }), let kind = kit.listKind(list.kind) else {
            if let container = try board.contentsListContainer(listID, kit: kit) { return try contents(of: container, result, on: board) }
            throw DragboardError.notFound("unknown list \(listID)")
        }
        let rows = result.placements.filter { if case .row = $0.destination { true } else { false } }
        let into = result.placements.filter { if case .into = $0.destination { true } else { false } }
        var changes: [BoardChange] = []
        var titles: [String] = []

        if let first = rows.first, case .row(let indexPath) = first.destination {
            let (ids, moved, names) = try land(rows, at: Placement(listID: listID, index: indexPath.row), in: list, kind: kind, on: board)
            titles += names
            for id in moved { changes.append(BoardChange(kind: .remove, item: id)) }
            for id in ids { changes.append(BoardChange(kind: .insert, item: id, list: listID, after: try board.predecessor(of: id))) }
        }
        if let first = into.first, case .into(let indexPath) = first.destination {
            // The one row at that index, not the whole list (beside the hovered row a rebased drop counted).
            guard indexPath.row >= 0, let row = try board.rowID(at: indexPath.row, inList: listID),
                  case let container = try board.item(row), kit.isContainer(container.kind) else {
                throw DragboardError.unprocessable("row \(indexPath.row) is not a container")
            }
            let (_, moved, names) = try land(into, at: Placement(listID: listID, containerID: container.id), in: list, kind: kind, on: board)
            titles += names
            for id in moved { changes.append(BoardChange(kind: .remove, item: id)) }
            changes.append(BoardChange(kind: .replace, item: container.id, list: listID))
            return Landed(changes: changes, message: "Put \(Self.names(titles)) into \(container.title).")
        }
        let verb = result.proposal.operation == .move ? "Moved" : "Copied"
        if let source = session.dragSource, source.listID != listID {
            return Landed(changes: changes, message: "\(verb) \(Self.names(titles)) from \(source.title) to \(list.title).")
        }
        return Landed(changes: changes, message: "\(verb) \(Self.names(titles)) to \(list.title).")
    }

    /// Moves, copies or inserts the placements' items consecutively; returns the ids now at the
    /// destination, the ids that left where they were, and the titles.
    private func land(_ placements: [DropPlacement], at placement: Placement, in list: ListRecord, kind: any ListKind,
                      on board: some BoardWriting) throws -> (landed: [String], left: [String], titles: [String]) {
        let local = placements.compactMap { $0.item.dragItem.localObject as? String }
        if local.count == placements.count {
            let titles = try local.map { try board.item($0).title }
            if placements.first?.operation == .move {
                try board.move(local, to: placement)
                return (local, local, titles)
            }
            return (try board.copy(local, to: placement), [], titles)
        }
        let newItems = try placements.map { placement -> NewItem in
            guard var content = placement.content else { throw DragboardError.unprocessable("a dropped item has no content") }
            // An image a list takes is kept like a zone's: the list kind gets it stored.
            if let image = content as? DroppedImage { content = try keepImage(image) }
            return try kind.newItem(from: content, in: list)
        }
        return (try board.insert(newItems, at: placement), [], newItems.map(\.title))
    }

    /// A drop into a container's contents at an index: the rows land inside it, keeping their
    /// fractional order keys, and the container is shown again with them.
    private func contents(of container: ItemRecord, _ result: SessionEngine.DropResult, on board: some BoardWriting) throws -> Landed {
        guard let list = try board.lists().first(where: { $0.id == container.listID }), let kind = kit.listKind(list.kind) else {
            throw DragboardError.notFound("unknown list \(container.listID)")
        }
        let indexes = result.placements.compactMap { placement -> Int? in
            if case .row(let indexPath) = placement.destination { indexPath.row } else { nil }
        }
        guard let index = indexes.first, indexes.count == result.placements.count else {
            throw DragboardError.unprocessable("\(container.title) takes rows at an index only")
        }
        let placement = Placement(listID: container.listID, containerID: container.id, index: index)
        let (_, moved, names) = try land(result.placements, at: placement, in: list, kind: kind, on: board)
        var changes = moved.map { BoardChange(kind: .remove, item: $0) }
        changes.append(try containerChange(container.id, on: board))
        let verb = result.proposal.operation == .move ? "Put" : "Copied"
        return Landed(changes: changes, message: "\(verb) \(Self.names(names)) into \(container.title).")
    }

    /// The container row to show again (with its contents) to every viewer.
    private func containerChange(_ id: String, on board: some BoardWriting) throws -> BoardChange {
        BoardChange(kind: .replace, item: id, list: try board.item(id).listID)
    }

    /// The zone's kind stores what its delegate accepted.
    private func zone(_ zoneID: String, _ result: SessionEngine.DropResult) throws -> Landed {
        guard let zone = kit.zone(zoneID) else { throw DragboardError.notFound("unknown zone \(zoneID)") }
        var writer = zoneWriter(zoneID)
        let message = try zone.performDrop(result.placements, in: &writer)
        return Landed(changes: [BoardChange(kind: .zone, item: zoneID)], message: message)
    }

    /// Lists dropped on the board between two others: their new order, read again by every viewer.
    private func listOrder(_ result: SessionEngine.DropResult, on board: some BoardWriting) throws -> Landed {
        let ids = result.placements.compactMap { $0.item.dragItem.localObject as? String }
        guard let first = result.placements.first, case .row(let indexPath) = first.destination, ids.count == result.placements.count else {
            throw DragboardError.unprocessable("lists only move between lists")
        }
        let lists = try board.lists()
        // The engine counts the destination among all lists; the store counts it without the moved ones.
        let before = lists.prefix(indexPath.row).filter { ids.contains($0.id) }.count
        try board.moveLists(ids, to: indexPath.row - before)
        let titles = ids.compactMap { id in lists.first { $0.id == id }?.title }
        return Landed(changes: [BoardChange(kind: .resync, item: BoardKit.listsTargetID)], message: "Moved the list \(Self.names(titles)).")
    }

    /// "Mug", "Mug and Cup", "3 items".
    static func names(_ titles: [String]) -> String {
        titles.count <= 2 ? titles.joined(separator: " and ") : "\(titles.count) items"
    }
}
