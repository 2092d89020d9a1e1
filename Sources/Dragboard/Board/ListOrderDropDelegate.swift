import DragAndDrop
import Foundation

/// The board as a collection of lists (UIKit's tutorial board is a collection view of
/// tables): a list dragged by its header lands between two others. Only lists of this app move
/// here, and nothing else does.
struct ListOrderDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.localDragSession != nil && session.allItemsConform(to: [BoardKit.listReference])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        DropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset))
        }
    }
}

extension BoardKit {
    /// The server's own reference to a list being dragged by its header: never leaves the server.
    public static let listReference: TypeIdentifier = "com.dragboard.list"
    /// The drop target id of the board itself, as the collection of its lists.
    public static let listsTargetID = "_board"
}
