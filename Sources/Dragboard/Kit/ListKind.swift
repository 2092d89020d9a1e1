import DragAndDrop
import Foundation

/// A kind of list an app registers with ``BoardKit``: which drop delegate decides drops on a
/// list of this kind, and what a drop from outside becomes. Each stored list names its kind by
/// ``id`` (the list row's `kind` column), so a kind's id must never change once lists use it.
///
/// The drop delegate is the `ListDropDelegate` you would write for a `UITableView`: the kit
/// builds one per list whenever it needs the page's drop targets, hands it the list as it is
/// now, and applies the placements its perform-drop records in one store transaction.
public protocol ListKind: Sendable {
    /// Stored in each list's `kind` column; lists whose kind is not registered take no drops.
    var id: String { get }
    /// A human name for the kind, for whoever chooses what a new list is.
    var title: String { get }
    /// Whether ``dropDelegate(for:)`` needs the list's rows (``BoardList/rows``). Reading them
    /// costs one query per list on every drag start, so it is off unless a delegate decides by
    /// row, as one that drops into container rows does.
    var dropDelegateReadsRows: Bool { get }

    /// The delegate deciding drops on `list`, built fresh for the list as it is now.
    func dropDelegate(for list: BoardList) -> any ListDropDelegate

    /// The delegate for drags that start in `list`; `items` are the dragged rows by index, each
    /// with its representations and its item id as `localObject`. The default,
    /// ``BoardDragDelegate``, offers them and allows moves.
    func dragDelegate(for list: ListRecord, items: [Int: DragItem]) -> any ListDragDelegate

    /// The row stored for what perform-drop passed as `content` for an item from outside (an
    /// item of this app is moved or copied by id instead). By default a ``NewItem`` is stored as
    /// it is and a `String` becomes a row of kind `text` with it as title.
    func newItem(from content: any Sendable, in list: ListRecord) throws -> NewItem
}

extension ListKind {
    public var title: String { id }
    public var dropDelegateReadsRows: Bool { false }

    public func dragDelegate(for list: ListRecord, items: [Int: DragItem]) -> any ListDragDelegate {
        BoardDragDelegate(items: items, source: DragSource(listID: list.id, title: list.title))
    }

    public func newItem(from content: any Sendable, in list: ListRecord) throws -> NewItem {
        switch content {
        case let item as NewItem: return item
        case let text as String: return NewItem(kind: "text", title: text)
        default: throw DragboardError.unprocessable("a drop on \(list.title) has no content the list can store")
        }
    }
}
