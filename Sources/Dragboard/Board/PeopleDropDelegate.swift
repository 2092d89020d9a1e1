import DragAndDrop
import Foundation

/// People: handles only items of the person type — everything else gets no drop at all.
struct PeopleDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.allItemsConform(to: [BoardTypes.person])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget, withDestinationIndexPath destinationIndexPath: IndexPath?) -> DropProposal {
        let fromHere = session.dragSource?.listID == list.id
        return DropProposal(operation: fromHere && !session.isCopyModifierPressed ? .move : .copy, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        try coordinator.placeAll(in: list, externalKind: .person)
    }
}
