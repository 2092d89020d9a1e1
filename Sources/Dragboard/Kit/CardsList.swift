import DragAndDrop
import Foundation

/// The kit's plain list kind, "Cards": what a person picks for a new list. It takes rows of any
/// board of this server (moved; copied with the copy modifier) and text, links and images
/// dropped from other apps (always copies, as UIKit rules for drags from outside), each a new
/// card: a link shows as a link, an image as a thumbnail.
public struct CardsList: ListKind {
    /// The kind's id, stored with each list of this kind.
    public static let id = "cards"

    public init() {}

    public var id: String { Self.id }
    public var title: String { "Cards" }

    public func dropDelegate(for list: BoardList) -> any ListDropDelegate { CardsDropDelegate() }

    /// A card from what a drop brought: text, a link, or a stored image.
    public func newItem(from content: any Sendable, in list: ListRecord) throws -> NewItem {
        switch content {
        case let item as NewItem: return item
        case let text as String: return NewItem(kind: "text", title: text)
        case let url as URL:
            return NewItem(kind: LinkCard.id, title: url.absoluteString, payload: BoardItem.payload(CardPayload(url: url.absoluteString)))
        case let image as StoredImage:
            return NewItem(kind: ImageCard.id, title: image.name, payload: BoardItem.payload(CardPayload(image: image.id)))
        default: throw DragboardError.unprocessable("a drop on \(list.title) has no text, link or image")
        }
    }
}

/// Inserts between cards; a card is never dropped into another.
struct CardsDropDelegate: ListDropDelegate {
    /// What an item from outside brings, best first: an image file, a link, text.
    private func content(of item: DropItem, in session: DropSession) throws -> (any Sendable)? {
        guard item.dragItem.localObject == nil else { return nil }
        if let image = try session.loadImage(from: item) { return image }
        if let url = try? session.loadObject(ofClass: URL.self, from: item) { return url }
        return try session.loadTitle(from: item)
    }

    func canHandle(_ session: DropSession, in list: ListTarget) -> Bool {
        session.localDragSession != nil ? session.hasItemsConforming(toTypeIdentifiers: [BoardKit.itemReference])
            : session.hasText || session.hasItemsConforming(toTypeIdentifiers: [.image])
    }

    func dropSessionDidUpdate(_ session: DropSession, in list: ListTarget,
                              withDestinationIndexPath destination: IndexPath?) -> DropProposal {
        // Refused at the hover when the drop would be: a `.txt` file is never read as text.
        if session.localDragSession == nil, let what = session.unreadableItems(as: DropSession.titleTypes + [.url], orFilesOf: [.image]) {
            return .forbidden("Cards are made from text, links or images, not from \(what)")
        }
        let operation: DropOperation = session.localDragSession == nil || session.isCopyModifierPressed ? .copy : .move
        return DropProposal(operation: operation, intent: .insertAtDestinationIndexPath)
    }

    func performDrop(in list: ListTarget, with coordinator: inout DropCoordinator) throws {
        let start = coordinator.destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in coordinator.items.enumerated() {
            // A row of this server travels by id; an image, a link or text from elsewhere becomes a new card.
            coordinator.drop(item, toRowAt: IndexPath(row: start + offset), content: try content(of: item, in: coordinator.session))
        }
    }
}
