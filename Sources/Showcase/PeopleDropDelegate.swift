import DragAndDrop
import Dragboard
import Foundation

/// People: handles only items of the person type — everything else gets no drop at all.
struct PeopleDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.allItemsConform(to: [ShowcaseTypes.person])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        let fromHere = session.dragSource?.listID == list.id
        return DropProposal(operation: fromHere && !session.isCopyModifierPressed ? .move : .copy, intent: .insertAtDestinationIndexPath)
    }

    /// The answer does not depend on the row: one run for the whole list, whatever its length.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let proposal = dropSessionDidUpdate(session, in: list, withDestinationIndexPath: IndexPath(row: 0, section: list.section))
        return [ProposalRun(start: 0, count: list.rowCount + 1, proposal: proposal)]
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        try coordinator.placeAll(in: list, externalKind: .person)
    }
}
