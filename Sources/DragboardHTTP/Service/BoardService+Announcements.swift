import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// The words of drags, as the domain composes them.
    var words: DragWords { DragWords(kit: kit) }

    /// Names the targets of a begin answer (for menus and announcements) and says what was
    /// picked up. Reads the board's list titles and the dragged rows' titles only, unless the
    /// caller read them already (`words`, in the read that found the rows).
    /// `position` is the first dragged row's index when the caller already knows it.
    /// `refusal`: why this person may drop nowhere (``DragUser/refusal``), said instead of a menu.
    func announced(_ response: BoardAPI.BeginResponse, request: BoardAPI.BeginRequest, board: String, position known: Int? = nil,
                   words: DragWords.PickUp? = nil, refusal: String? = nil) throws -> BoardAPI.BeginResponse {
        var response = response
        let targetLists = response.table.targets.compactMap(\.target.list)
        let (names, spoken, titles) = try words.map { ($0.names, $0.spoken, $0.titles) } ?? store.read(board: board) { tx in
            let words = try self.words.pickedUp(request.items, from: request.list, targetLists: targetLists, position: known, on: tx)
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
        if !response.table.targets.contains(where: { $0.menu != nil }) { response.nowhere = refusal ?? Announcement.nowhere(titles) }
        return response
    }

    /// The words for a target change, read from the board as it is now.
    func announcement(for proposal: DropProposal, at destinationRow: Int?, on target: DropTargetID, location: BoardAPI.Location?,
                      dragSession: DragSession?, board: String) throws -> String {
        try store.read(board: board) { tx in
            try words.target(target, proposal: proposal, destinationRow: destinationRow, hoveredItem: location?.item, dragSession: dragSession, on: tx)
        }
    }

    /// The words for a session that ended without a drop.
    func cancelAnnouncement(_ engine: SessionEngine, board: String) -> String {
        (try? store.read(board: board) { tx in words.cancelled(engine, on: tx) }) ?? Announcement.cancelled([], in: "")
    }
}
