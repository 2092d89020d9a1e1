import Foundation

/// One dragged thing: a provider of typed representations plus an in-app shortcut.
public struct DragItem: Sendable {
    /// The typed representations, loadable at drop time.
    public var itemProvider: ItemProvider
    /// A value only the dragging app sees, like `UIDragItem.localObject`: typically the model id.
    public var localObject: (any Sendable & Hashable)?

    public init(itemProvider: ItemProvider, localObject: (any Sendable & Hashable)? = nil) {
        self.itemProvider = itemProvider
        self.localObject = localObject
    }
}

/// A dragged item as a drop target sees it in perform-drop.
public struct DropItem: Sendable {
    public var dragItem: DragItem
    /// Where the item came from when it came from this very list; nil otherwise.
    public var sourceIndexPath: IndexPath?
}
