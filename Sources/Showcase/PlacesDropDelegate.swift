import DragAndDrop
import Dragboard
import Foundation

/// Apple's table-view sample: from this list one row moves and several cancel; from anywhere
/// else rows are copied; below the last row they are appended.
struct PlacesDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.hasText
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        let fromHere = session.dragSource?.listID == list.id
        if fromHere && session.items.count > 1 { return .cancel("Only one place can be moved at a time") }
        if session.localDragSession == nil, let what = session.unreadableItems(as: DropSession.titleTypes + [.url]) {
            return .forbidden("Places are made from text or links, not from \(what)")
        }
        let operation: DropOperation = fromHere && !session.isCopyModifierPressed ? .move : .copy
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    /// The answer does not depend on the row: one run for the whole list, whatever its length.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let proposal = dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: 0, section: list.section))
        return [ProposalRun(start: 0, count: list.rowCount + 1, proposal: proposal)]
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        try coordinator.placeAll(in: list, externalKind: .place)
    }
}
