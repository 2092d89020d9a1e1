// The Swift of docs/accounts.md, compiled (Tests/layout/test_doc_snippets.py checks it is here verbatim).
import Dragboard
import Foundation

/// The guide's rule by person, in a delegate of its own.
struct OwnersApproveDropDelegate: ListDropDelegate {
    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        // Only owners may drop into the "Approved" list.
        if list.id == "approved", session.user.map({ $0.destinationRole != .owner }) ?? false {
            return .forbidden("Only an owner can approve cards.")
        }
        return DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {}
}
