import Foundation

/// The source side of a drag that started in this app, like `UIDragSession`.
public struct DragSession: Sendable {
    /// The dragged items, in order.
    public var items: [DragItem]
    /// App-defined context for the whole drag, seen only inside this app, like `localContext`.
    public var localContext: (any Sendable)?
    /// Whether a drop inside this app may move the items (asked of the drag delegate).
    public internal(set) var allowsMoveOperation: Bool = true
    /// Whether only this app may take the drop (asked of the drag delegate).
    public internal(set) var isRestrictedToDraggingApplication: Bool = false
    /// The list the drag started in and the dragged rows, in list order.
    public internal(set) var sourceList: ListTarget?
    public internal(set) var sourceIndexPaths: [IndexPath] = []

    public init(items: [DragItem] = [], localContext: (any Sendable)? = nil) {
        self.items = items
        self.localContext = localContext
    }
}
