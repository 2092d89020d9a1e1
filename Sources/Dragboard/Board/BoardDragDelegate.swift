import DragAndDrop
import Foundation

/// Where a drag started: the session's `localContext`, so targets can name the source list.
public struct DragSource: Sendable, Hashable {
    /// The list the dragged rows are in.
    public var listID: String
    /// Its title, for messages such as "Moved … from <title> to …".
    public var title: String

    public init(listID: String, title: String) {
        self.listID = listID
        self.title = title
    }
}

/// The drag side of a list, unless its kind says otherwise: each dragged row offers its
/// representations with its id as `localObject`, and the list is the session's `localContext`.
/// The kit relies on both to move rows and to name the source; a kind's own drag delegate
/// should wrap this one rather than replace what it puts in the session.
public struct BoardDragDelegate: ListDragDelegate {
    /// The dragged rows by index.
    public var items: [Int: DragItem]
    public var source: DragSource

    public init(items: [Int: DragItem], source: DragSource) {
        self.items = items
        self.source = source
    }

    public func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem] {
        guard let item = items[indexPath.row] else { return [] }
        session.localContext = source
        return [item]
    }
}
