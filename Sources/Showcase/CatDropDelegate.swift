import DragAndDrop
import Dragboard
import Foundation

/// A cat takes toys: moved between cats (copied with the copy modifier or from another app);
/// people are forbidden with a reason; anything else is refused, and the reason says why.
struct CatDropDelegate: ListDropDelegate {
    var name: String

    /// Toys, text (a new toy), people, files and images concern a cat: it says why it refuses
    /// what it does not take, rather than staying silent.
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.hasText || session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.toy, ShowcaseTypes.person, ShowcaseTypes.box, .data])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        if session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.person]) {
            return .forbidden("\(name) only plays with toys, not with people")
        }
        if session.localDragSession != nil {
            guard session.allItemsConform(to: [ShowcaseTypes.toy]) else {
                let boxes = session.hasItemsConforming(toTypeIdentifiers: [ShowcaseTypes.box])
                return .cancel(boxes ? "\(name) only plays with toys, not with boxes" : "\(name) only plays with toys")
            }
        } else if let what = session.unreadableItems(as: DropSession.titleTypes) {
            // What the drop would refuse, said at the hover: a cat's new toys are made from text.
            return .forbidden("\(name) makes toys from text, not from \(what)")
        }
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
