import DragAndDrop
import Foundation

extension DropSession {
    /// The list a drag of this app started in; `nil` for a drag from elsewhere.
    public var dragSource: DragSource? { localDragSession?.localContext as? DragSource }

    /// Whether the items offer something readable as text: plain text, HTML (reduced to text) or a URL.
    public var hasText: Bool { hasItemsConforming(toTypeIdentifiers: [.plainText, .html, .url]) }

    /// True when every item conforms to one of `types` (UIKit's `hasItemsConforming` asks for any).
    public func allItemsConform(to types: [TypeIdentifier]) -> Bool {
        !items.isEmpty && items.allSatisfy { item in types.contains { item.itemProvider.hasItemConforming(toTypeIdentifier: $0, in: registry) } }
    }

    /// The longest title a dropped text may become.
    public static let maximumTitleLength = 500

    /// Reads an item from another app as one line of text fit for a row's title: plain text,
    /// or HTML reduced to its text (never kept as markup), line breaks collapsed into spaces.
    /// - Throws: when the item has no text, the text is empty, or longer than ``maximumTitleLength``.
    public func loadTitle(from item: DropItem) throws -> String {
        guard let text = try loadObject(ofClass: String.self, from: item) ?? loadObject(ofClass: HTMLText.self, from: item)?.text else {
            throw DragboardError.unprocessable("nothing readable was dropped")
        }
        let title = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !title.isEmpty else { throw DragboardError.unprocessable("the dropped text is empty") }
        guard title.count <= Self.maximumTitleLength else { throw DragboardError.tooLarge("the dropped text is longer than \(Self.maximumTitleLength) characters") }
        return title
    }
}
