import DragAndDrop
import Dragboard
import Foundation

/// An open toy box is a list of its own: toys go in at an index (moved, or copied with the copy
/// modifier; text from another app becomes a toy); a box never goes into a box.
struct BoxContentsDropDelegate: ListDropDelegate {
    var name: String

    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.hasText || session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.toy, ShowcaseTypes.box])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        if session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.box]) {
            return .forbidden("a box never goes into a box")
        }
        guard session.allItemsConform(to: [ShowcaseTypes.toy]) || session.localDragSession == nil else { return .cancel }
        guard session.hasText || session.localDragSession != nil else { return .cancel }
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    /// The answer does not depend on the row: one run for the whole box.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let proposal = dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: 0, section: list.section))
        return [ProposalRun(start: 0, count: list.rowCount + 1, proposal: proposal)]
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        try coordinator.placeAll(in: list, externalKind: .toy)
    }
}
