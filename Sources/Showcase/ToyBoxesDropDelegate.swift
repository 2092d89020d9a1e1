import DragAndDrop
import Dragboard
import Foundation

/// Toy boxes: over the middle of a box a toy goes into it; near a row's edges it is inserted
/// between rows (the `automatic` intent). Boxes are reordered; a box never goes into a box.
struct ToyBoxesDropDelegate: ListDropDelegate {
    var rows: [BoardItem]

    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.allItemsConform(to: [ShowcaseTypes.toy, ShowcaseTypes.box])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        let toysOnly = session.allItemsConform(to: [ShowcaseTypes.toy])
        if let row = destinationIndexPath?.row, rows.indices.contains(row), rows[row].kind == BoxItem.id, toysOnly {
            return DropProposal(operation: operation, intent: .automatic)
        }
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    /// One answer per row kind, so the table costs O(rows) with no per-row session queries.
    func dropProposals(for session: DropSession, in list: ListTarget) -> [ProposalRun] {
        let operation: DropOperation = session.isCopyModifierPressed ? .copy : .move
        let toysOnly = session.allItemsConform(to: [ShowcaseTypes.toy])
        var runs = ProposalRunBuilder()
        for row in 0...list.rowCount {
            let intoBox = toysOnly && rows.indices.contains(row) && rows[row].kind == BoxItem.id
            runs.append(DropProposal(operation: operation, intent: intoBox ? .automatic : .insertAtDestinationIndexPath))
        }
        return runs.runs
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        if coordinator.proposal.intent == .insertIntoDestinationIndexPath, let box = coordinator.destinationIndexPath {
            for item in coordinator.items {
                let content: NewItem? = item.dragItem.localObject == nil ? try coordinator.session.incoming(item, as: .toy) : nil
                coordinator.drop(item, intoRowAt: box, content: content)
            }
        } else {
            try coordinator.placeAll(in: list, externalKind: .toy)
        }
    }
}
