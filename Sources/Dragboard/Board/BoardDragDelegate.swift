import DragAndDrop
import Foundation

/// Where a drag started: the session's `localContext`, so targets can name the source list.
public struct DragSource: Sendable, Hashable {
    public var listID: String
    public var title: String
}

/// The drag side of every list: each row offers its representations and its id as `localObject`.
struct BoardDragDelegate: ListDragDelegate {
    /// The dragged rows by index.
    var rows: [Int: BoardItem]
    var title: String

    func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] {
        guard let item = rows[indexPath.row] else { return [] }
        session.localContext = DragSource(listID: list.id, title: title)
        return [DragItem(itemProvider: item.itemProvider, localObject: item.id)]
    }
}

/// What an item dropped from outside becomes.
public struct IncomingItem: Sendable, Hashable {
    public var kind: ItemKind
    public var title: String
    public var age: Int?
    public var url: String?

    static let maximumTitleLength = 500
}

extension DropSession {
    var dragSource: DragSource? { localDragSession?.localContext as? DragSource }

    /// Whether the items offer something readable as text: plain text, HTML (reduced to text) or a URL.
    var hasText: Bool { hasItemsConforming(toTypeIdentifiers: [.plainText, .html, .url]) }

    /// True when every item conforms to one of `types`.
    func allItemsConform(to types: [TypeIdentifier]) -> Bool {
        !items.isEmpty && items.allSatisfy { item in types.contains { item.itemProvider.hasItemConforming(toTypeIdentifier: $0, in: registry) } }
    }

    /// Reads an item from another app as `kind`, with text reduced to a clean title.
    func incoming(_ item: DropItem, as kind: ItemKind) throws -> IncomingItem {
        if kind == .person, let person = try loadObject(ofClass: PersonValue.self, from: item) {
            return IncomingItem(kind: .person, title: person.name, age: person.age)
        }
        if kind == .place || kind == .text, let url = try? loadObject(ofClass: URL.self, from: item) {
            return IncomingItem(kind: kind == .place ? .link : kind, title: url.absoluteString, url: url.absoluteString)
        }
        guard kind != .person, let text = try loadObject(ofClass: String.self, from: item) ?? loadObject(ofClass: HTMLText.self, from: item)?.text else {
            throw DragboardError.unprocessable("nothing readable was dropped")
        }
        let title = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !title.isEmpty else { throw DragboardError.unprocessable("the dropped text is empty") }
        guard title.count <= IncomingItem.maximumTitleLength else { throw DragboardError.tooLarge("the dropped text is longer than \(IncomingItem.maximumTitleLength) characters") }
        return IncomingItem(kind: kind, title: title)
    }
}

extension DropCoordinator {
    /// Places every item at the destination (or at the end), consecutively, with what
    /// items from outside become.
    mutating func placeAll(in list: ListTarget, externalKind: ItemKind) throws {
        let start = destinationIndexPath?.row ?? list.rowCount
        for (offset, item) in items.enumerated() {
            let content: IncomingItem? = item.dragItem.localObject == nil ? try session.incoming(item, as: externalKind) : nil
            drop(item, toRowAt: IndexPath(row: start + offset, section: list.section), content: content)
        }
    }
}
