import DragAndDrop

/// The words a drag is told in — what was picked up, what a target would do, that nothing was
/// dropped — composed from the board as the domain reads it, for a screen reader's live region
/// and the status line alike.
package struct DragWords {
    /// What a drag from a list read already that its pick-up words need.
    package struct KnownSource {
        package var lists: [ListRecord]
        package var titles: [String]
        package var rowCount: Int

        package init(lists: [ListRecord], titles: [String], rowCount: Int) {
            self.lists = lists
            self.titles = titles
            self.rowCount = rowCount
        }
    }

    /// What a drag's start says: every target's name (list ids, and `zone:<id>` for zones), the
    /// pick-up sentence and the dragged titles.
    package struct PickUp: Sendable {
        package var names: [String: String]
        package var spoken: String?
        package var titles: [String]
    }

    let kit: BoardKit

    package init(kit: BoardKit) {
        self.kit = kit
    }

    /// The targets' names (`targetLists`: the ids of the list targets), the pick-up words and the
    /// dragged rows' titles, for `items` picked up from `listID` (a list, an open container, or the
    /// board's lists). `position`: the first dragged row's index, when the caller knows it; `source`:
    /// what a drag from a list read already, so none of it is read twice.
    package func pickedUp(_ items: [String], from listID: String, targetLists: [String], position known: Int?,
                          on board: some BoardWriting, source: KnownSource? = nil) throws -> PickUp {
        let lists = try source?.lists ?? board.lists()
        var names = Dictionary(lists.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        for zone in kit.zones { names["zone:\(zone.id)"] = zone.title }
        // A target that is no list of the board is a container's contents, named by the container
        // (as ``BoardWriting/titledList(_:kit:)`` names it, with the lists already read).
        let listIDs = Set(lists.map(\.id))
        func container(_ id: String) -> ItemRecord? {
            guard let item = try? board.item(id), item.containerID == nil, kit.hasContentsList(item.kind), listIDs.contains(item.listID) else { return nil }
            return item
        }
        for id in targetLists where names[id] == nil {
            names[id] = container(id)?.title
        }
        // A drag known to come from a list skips the container lookup.
        let sourceList = source.flatMap { source in source.lists.first { $0.id == listID } }
        if sourceList == nil, let container = container(listID) {
            let titles = try items.map { try board.item($0).title }
            let position = (try known ?? board.index(of: items[0], inContainer: container.id) ?? 0) + 1
            let spoken = Announcement.pickedUp(titles, position: position, of: try board.rowCount(container.listID, container.id), in: container.title)
            return PickUp(names: names, spoken: spoken, titles: titles)
        }
        guard let list = sourceList ?? (listID == BoardKit.listsTargetID ? nil : lists.first { $0.id == listID }) else {
            let titles = items.compactMap { id in lists.first { $0.id == id }?.title }
            return PickUp(names: names, spoken: "Picked up the list \(Announcement.names(titles)).", titles: titles)
        }
        let titles = try source?.titles ?? items.map { try board.item($0).title }
        let position = (try known ?? board.index(of: items[0], in: list.id) ?? 0) + 1
        let rowCount = try source?.rowCount ?? board.rowCount(in: list.id)
        return PickUp(names: names, spoken: Announcement.pickedUp(titles, position: position, of: rowCount, in: list.title), titles: titles)
    }

    /// The words for a target change: the target's name, the place the rows would take (or the
    /// row `hoveredItem` they would go into) and the operation, or the refusal with its reason.
    package func target(_ target: DropTargetID, proposal: DropProposal, destinationRow: Int?, hoveredItem: String?,
                        dragSession: DragSession?, on board: some BoardWriting) throws -> String {
        switch target {
        case .zone(let id):
            let name = kit.zones.first { $0.id == id }?.title ?? id
            return Announcement.target(name, proposal: proposal, position: nil, of: 0, into: nil)
        case .list(let id) where id == BoardKit.listsTargetID:
            return Announcement.target("The board", proposal: proposal, position: destinationRow.map { $0 + 1 }, of: try board.lists().count, into: nil)
        case .list(let id):
            // A list of the board, or an open container's contents (named by the container).
            guard let list = try board.titledList(id, kit: kit) else { throw DragboardError.notFound("unknown list \(id)") }
            let rowCount = list.rowCount
            var into: String?
            if proposal.intent == .insertIntoDestinationIndexPath, let item = hoveredItem {
                into = try? board.item(item).title
            }
            guard let destination = destinationRow else {
                return Announcement.target(list.title, proposal: proposal, position: nil, of: rowCount + 1, into: into)
            }
            // Within its own list one row takes one of its list's places: the gaps on either side
            // of it are the same place.
            if let source = dragSession?.sourceList, source.id == id, dragSession?.sourceIndexPaths.count == 1,
               proposal.operation == .move, let from = dragSession?.sourceIndexPaths.first?.row {
                return Announcement.target(list.title, proposal: proposal, position: (destination > from ? destination - 1 : destination) + 1,
                                           of: rowCount, into: into)
            }
            return Announcement.target(list.title, proposal: proposal, position: destination + 1, of: rowCount + 1, into: into)
        }
    }

    /// The words for a session that ended without a drop: the rows stay where they were.
    package func cancelled(_ engine: SessionEngine, on board: some BoardWriting) -> String {
        guard let source = engine.dragSession?.sourceList, source.id != BoardKit.listsTargetID else { return Announcement.cancelled([], in: "") }
        let ids = engine.dropSession.items.compactMap { $0.localObject as? String }
        guard let list = try? board.titledList(source.id, kit: kit)?.title ?? "", let titles = try? ids.map({ try board.item($0).title }) else {
            return Announcement.cancelled([], in: "")
        }
        return Announcement.cancelled(titles, in: list)
    }
}
