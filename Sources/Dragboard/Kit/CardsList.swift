import DragAndDrop
import Foundation

/// The kit's plain list kind, "Cards": what a person picks for a new list. It takes rows of any
/// board of this server (moved; copied with the copy modifier) and text or links dropped from
/// other apps (always copies, as UIKit rules for drags from outside), each a new card.
public struct CardsList: ListKind {
    /// The kind's id, stored with each list of this kind.
    public static let id = "cards"

    public init() {}

    public var id: String { Self.id }
    public var title: String { "Cards" }

    public func dropDelegate(for list: BoardList) -> any ListDropDelegate { CardsDropDelegate() }
}

/// Inserts between cards; a card is never dropped into another.
struct CardsDropDelegate: ListDropDelegate {
    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.localDragSession != nil || session.hasText
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        let operation: DropOperation = session.localDragSession == nil || session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            // A row of this server travels by id; text from elsewhere becomes a new card.
            let title = item.dragItem.localObject == nil ? try coordinator.session.loadTitle(from: item) : nil
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset), content: title)
        }
    }
}
