import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// What a drag from a list read already that its pick-up words need.
    struct ListDragWords {
        var lists: [ListRecord]
        var titles: [String]
        var rowCount: Int
    }

    /// What a begin answer says: the targets' names, the pick-up words and the dragged titles.
    struct PickUpWords {
        var names: [String: String]
        var spoken: String?
        var titles: [String]
    }

    /// Names the targets of a begin answer (for menus and announcements) and says what was
    /// picked up. Reads the board's list titles and the dragged rows' titles only, unless the
    /// caller read them already (`words`, in the read that found the rows).
    /// `position` is the first dragged row's index when the caller already knows it.
    func announced(_ response: BoardAPI.BeginResponse, request: BoardAPI.BeginRequest, board: String, position known: Int? = nil,
                   words: PickUpWords? = nil) throws -> BoardAPI.BeginResponse {
        var response = response
        let targetLists = response.table.targets.compactMap(\.target.list)
        let (names, spoken, titles) = try words.map { ($0.names, $0.spoken, $0.titles) } ?? store.read(board: board) { tx in
            let words = try pickUpWords(targetLists: targetLists, request: request, position: known, tx: tx)
            return (words.names, words.spoken, words.titles)
        }
        for index in response.table.targets.indices {
            let target = response.table.targets[index].target
            response.table.targets[index].name = target.list.flatMap { names[$0] } ?? target.zone.flatMap { names["zone:\($0)"] }
        }
        for index in response.table.targets.indices {
            let entry = response.table.targets[index]
            let end = entry.target.list != nil && !entry.runs.isEmpty ? entry.runs[entry.runs.count - 1].proposal : entry.noRow
            if entry.handled, end.op == .move || end.op == .copy, let name = entry.name {
                response.table.targets[index].menu = Announcement.destination(name, operation: end.op)
            }
        }
        if request.list == BoardKit.listsTargetID { response.table.targets.indices.forEach { response.table.targets[$0].name = "the board" } }
        response.announcement = spoken
        if !response.table.targets.contains(where: { $0.menu != nil }) { response.nowhere = Announcement.nowhere(titles) }
        return response
    }

    /// The targets' names (`targetLists`: the ids of the list targets), the pick-up words and
    /// the dragged rows' titles, read in `tx`.
    /// A drag from a list passes what its own read found already (`source`: the board's lists, the
    /// dragged rows' titles and the list's row count), so none of it is read twice.
    func pickUpWords(targetLists: [String], request: BoardAPI.BeginRequest, position known: Int?, tx: BoardTransaction,
                     source: ListDragWords? = nil) throws -> PickUpWords {
        let lists = try source?.lists ?? tx.lists()
        var names = Dictionary(lists.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        for zone in kit.zones { names["zone:\(zone.id)"] = zone.title }
        // A target that is no list of the board is a container's contents, named by the
        // container (as ``titledList(_:tx:)`` names it, with the lists already read).
        let listIDs = Set(lists.map(\.id))
        func container(_ id: String) -> ItemRecord? {
            guard let item = try? tx.item(id), item.containerID == nil, kit.hasContentsList(item.kind), listIDs.contains(item.listID) else { return nil }
            return item
        }
        for id in targetLists where names[id] == nil {
            names[id] = container(id)?.title
        }
        // A drag known to come from a list skips the container lookup.
        let sourceList = source.flatMap { source in source.lists.first { $0.id == request.list } }
        if sourceList == nil, let container = container(request.list) {
            let titles = try request.items.map { try tx.item($0).title }
            let position = (try known ?? tx.index(of: request.items[0], inContainer: container.id) ?? 0) + 1
            return PickUpWords(names: names, spoken: Announcement.pickedUp(titles, position: position, of: try tx.rowCount(container.listID, container.id), in: container.title), titles: titles)
        }
        guard let list = sourceList ?? (request.list == BoardKit.listsTargetID ? nil : lists.first { $0.id == request.list }) else {
            let titles = request.items.compactMap { id in lists.first { $0.id == id }?.title }
            return PickUpWords(names: names, spoken: "Picked up the list \(Announcement.names(titles)).", titles: titles)
        }
        let titles = try source?.titles ?? request.items.map { try tx.item($0).title }
        let position = (try known ?? tx.index(of: request.items[0], in: list.id) ?? 0) + 1
        let rowCount = try source?.rowCount ?? tx.rowCount(in: list.id)
        return PickUpWords(names: names, spoken: Announcement.pickedUp(titles, position: position, of: rowCount, in: list.title), titles: titles)
    }

    /// The words for a target change: the target's name, the place the rows would take (or the
    /// row they would go into) and the operation, or the refusal with its reason.
    func announcement(for proposal: DropProposal, at destinationRow: Int?, on target: DropTargetID, location: BoardAPI.Location?,
                      dragSession: DragSession?, board: String) throws -> String {
        try store.read(board: board) { tx in
            switch target {
            case .zone(let id):
                let name = kit.zones.first { $0.id == id }?.title ?? id
                return Announcement.target(name, proposal: proposal, position: nil, of: 0, into: nil)
            case .list(let id) where id == BoardKit.listsTargetID:
                return Announcement.target("The board", proposal: proposal, position: destinationRow.map { $0 + 1 },
                                           of: try tx.lists().count, into: nil)
            case .list(let id):
                // A list of the board, or an open container's contents (named by the container).
                guard let list = try titledList(id, tx: tx) else { throw DragboardError.notFound("unknown list \(id)") }
                let rowCount = list.rowCount
                var into: String?
                if proposal.intent == .insertIntoDestinationIndexPath, let item = location?.item {
                    into = try? tx.item(item).title
                }
                guard let destination = destinationRow else {
                    return Announcement.target(list.title, proposal: proposal, position: nil, of: rowCount + 1, into: into)
                }
                // Within its own list one row takes one of its list's places: the gaps on either
                // side of it are the same place.
                if let source = dragSession?.sourceList, source.id == id, dragSession?.sourceIndexPaths.count == 1,
                   proposal.operation == .move, let from = dragSession?.sourceIndexPaths.first?.row {
                    return Announcement.target(list.title, proposal: proposal, position: (destination > from ? destination - 1 : destination) + 1,
                                               of: rowCount, into: into)
                }
                return Announcement.target(list.title, proposal: proposal, position: destination + 1, of: rowCount + 1, into: into)
            }
        }
    }

    /// The words for a session that ended without a drop: the rows stay where they were.
    func cancelAnnouncement(_ engine: SessionEngine, board: String) -> String {
        guard let source = engine.dragSession?.sourceList, source.id != BoardKit.listsTargetID else { return Announcement.cancelled([], in: "") }
        let ids = engine.dropSession.items.compactMap { $0.localObject as? String }
        let spoken = try? store.read(board: board) { tx -> String in
            let list = try titledList(source.id, tx: tx)?.title ?? ""
            return Announcement.cancelled(try ids.map { try tx.item($0).title }, in: list)
        }
        return spoken ?? Announcement.cancelled([], in: "")
    }
}
