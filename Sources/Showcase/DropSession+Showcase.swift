import DragAndDrop
import Dragboard
import Foundation

/// What a row dropped from another app becomes in the showcase's lists.
enum IncomingKind {
    /// A toy (text) in a cat's list or a toy box.
    case toy
    /// A place (text) or a link (a URL) in the places list.
    case place
    /// A person: only the person type will do.
    case person
}

extension DropSession {
    /// Reads an item from another app as a row of `kind`, with text reduced to a clean title.
    func incoming(_ item: DropItem, as kind: IncomingKind) throws -> NewItem {
        switch kind {
        case .person:
            guard let person = try loadObject(ofClass: PersonValue.self, from: item) else { throw DragboardError.unprocessable("nothing readable was dropped") }
            return NewItem(kind: PersonItem.id, title: person.name, payload: BoardItem.payload(ShowcasePayload(age: person.age)))
        case .place:
            if let url = try? loadObject(ofClass: URL.self, from: item) {
                return NewItem(kind: LinkItem.id, title: url.absoluteString, payload: BoardItem.payload(ShowcasePayload(url: url.absoluteString)))
            }
            return NewItem(kind: "place", title: try loadTitle(from: item))
        case .toy:
            return NewItem(kind: ToyItem.id, title: try loadTitle(from: item))
        }
    }

    /// The text a label shows for an item: a URL's address, or its text.
    func labelText(_ item: DropItem) throws -> String {
        if let url = try? loadObject(ofClass: URL.self, from: item) { return url.absoluteString }
        return try loadTitle(from: item)
    }
}

extension DropCoordinator {
    /// Places every item at the destination (or at the end), consecutively; items from outside
    /// become rows of `externalKind`.
    mutating func placeAll(in list: ListTarget, externalKind: IncomingKind) throws {
        let start = destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in items.enumerated() {
            let content: NewItem? = item.dragItem.localObject == nil ? try session.incoming(item, as: externalKind) : nil
            drop(item, toRowAt: IndexPath(row: start + offset, section: list.section), content: content)
        }
    }
}
