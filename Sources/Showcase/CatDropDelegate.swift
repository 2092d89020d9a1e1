import DragAndDrop
import Dragboard
import Foundation

/// A cat takes toys: moved between cats (copied with the copy modifier or from another app);
/// people are forbidden with a reason; anything else from this app is cancelled.
struct CatDropDelegate: ListDropDelegate {
    var name: String

    /// Toys, text (a new toy) and people (forbidden, with a reason) concern a cat; nothing else does.
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.hasText || session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.toy, ShowcaseTypes.person])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        if session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.person]) {
            return .forbidden("\(name) only plays with toys, not with people")
        }
        let isToy = session.allItemsConform(to: [ShowcaseTypes.toy])
        guard isToy || session.localDragSession == nil else { return .cancel }
        guard session.hasText else { return .cancel }
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    /// The answer does not depend on the row: one run for the whole list, whatever its length.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let proposal = dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: 0, section: list.section))
        return [ProposalRun(start: 0, count: list.rowCount + 1, proposal: proposal)]
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        try coordinator.placeAll(in: list, externalKind: .toy)
    }
}
