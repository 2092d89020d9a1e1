import Foundation

/// The source side of a list, like `UITableViewDragDelegate`.
public protocol ListDragDelegate: Sendable {
    /// The items for one dragged row; called once per selected row, in list order. Return no
    /// items to keep that row out of the drag; a drag with no items does not begin. Set
    /// `session.localContext` here to pass context to targets inside the app.
    func itemsForBeginning(_ session: inout DragSession, at indexPath: IndexPath, in list: ListTarget) -> [DragItem]
    /// The drag is about to begin with all its items.
    func dragSessionWillBegin(_ session: DragSession, in list: ListTarget)
    /// Whether drops inside the app may move the items. Default: true.
    func dragSessionAllowsMoveOperation(_ session: DragSession, in list: ListTarget) -> Bool
    /// Whether only this app may take the drop. Default: false.
    func dragSessionIsRestrictedToDraggingApplication(_ session: DragSession, in list: ListTarget) -> Bool
    /// The drag ended with `operation` (`cancel` when nothing was dropped); always balances will-begin.
    func dragSessionDidEnd(_ session: DragSession, in list: ListTarget, operation: DropOperation)
}

extension ListDragDelegate {
    public func dragSessionWillBegin(_ session: DragSession, in list: ListTarget) {}
    public func dragSessionAllowsMoveOperation(_ session: DragSession, in list: ListTarget) -> Bool { true }
    public func dragSessionIsRestrictedToDraggingApplication(_ session: DragSession, in list: ListTarget) -> Bool { false }
    public func dragSessionDidEnd(_ session: DragSession, in list: ListTarget, operation: DropOperation) {}
}
