import DragAndDrop
import Foundation

/// Where a drag of rows starts, and all the first answer needs, read in one transaction: the
/// domain's half of `dragstart` (the caller keeps the session and answers on the wire).
package enum DragStart {
    /// The rows are an open container's contents (a box's): their own list.
    case container(ItemRecord)
    /// The rows are a board list's.
    case list(ListDrag)

    /// A drag of a board list's rows: its rows by index, the targets, the words of the pick-up.
    package struct ListDrag {
        package var version: Int
        package var list: ListRecord
        package var rowCount: Int
        package var dragged: [Int: BoardItem]
        package var targets: DropTargets
        /// The first dragged row's index.
        package var position: Int?
        package var words: DragWords.PickUp
    }

    /// Finds the rows `items` of `listID` (an open container's contents first) with everything a
    /// drag of them needs; reads only the dragged rows and each list's row count, so a drag start
    /// costs the same whatever the lists' lengths (apart from delegates that read every row).
    /// - Throws: ``DragboardError/notFound(_:)`` for an unknown list or a row not in it,
    ///   ``DragboardError/unprocessable(_:)`` for a row named twice.
    package static func find(_ items: [String], in listID: String, kit: BoardKit, on board: some BoardWriting, version: Int) throws -> DragStart {
        // The source (a list, or a container whose contents are a list) and the dragged rows with their
        // indexes, read at once.
        try board.prefetchRows([listID] + items, indexed: Dictionary(items.map { ($0, listID) }, uniquingKeysWith: { first, _ in first }))
        if let container = try board.contentsListContainer(listID, kit: kit) { return .container(container) }
        let lists = try board.lists()
        guard let list = lists.first(where: { $0.id == listID }) else { throw DragboardError.notFound("unknown list \(listID)") }
        let dragged = try items.map { id -> (Int, BoardItem) in
            guard let row = try board.index(of: id, in: list.id) else { throw DragboardError.notFound("item \(id) is not in list \(list.id)") }
            return (row, BoardItem(try board.item(id)))
        }
        // Two ids naming one row (which the grammar should already make impossible) are a refusal, never a trap.
        let rows = Dictionary(dragged, uniquingKeysWith: { first, _ in first })
        guard rows.count == dragged.count else { throw DragboardError.unprocessable("an item is listed twice") }
        let targets = try board.dropTargets(kit)
        let position = rows.first { $0.value.id == items.first }?.key
        let rowCount = try board.rowCount(in: list.id)
        let known = DragWords.KnownSource(lists: lists, titles: dragged.map(\.1.title), rowCount: rowCount)
        let words = try DragWords(kit: kit).pickedUp(items, from: listID, targetLists: targets.lists.map(\.target.id), position: position,
                                                     on: board, source: known)
        return .list(ListDrag(version: version, list: list, rowCount: rowCount, dragged: rows, targets: targets, position: position, words: words))
    }
}

extension DragStart.ListDrag {
    /// The engine of this drag, its items made by the list kind's drag delegate (the board's
    /// default one otherwise), with the person who drags.
    package func engine(kit: BoardKit, user: DragUser?) throws -> SessionEngine {
        let items = dragged.mapValues { DragItem(itemProvider: kit.itemProvider(for: $0), localObject: $0.id) }
        let delegate = kit.listKind(list.kind)?.dragDelegate(for: list, items: items)
            ?? BoardDragDelegate(items: items, source: DragSource(listID: list.id, title: list.title))
        return try DragStart.engine(from: ListTarget(id: list.id, rowCount: rowCount), rows: Array(dragged.keys), delegate: delegate,
                                    targets: targets, kit: kit, user: user)
    }
}

extension DragStart {
    /// Begins the engine of a drag of `rows` of `source`, with the person who drags.
    /// - Throws: ``DragboardError/unprocessable(_:)`` when the delegate gives no item.
    package static func engine(from source: ListTarget, rows: [Int], delegate: any ListDragDelegate, targets: DropTargets, kit: BoardKit,
                               user: DragUser?) throws -> SessionEngine {
        guard var engine = SessionEngine.beginDrag(from: source, at: rows.map { IndexPath(row: $0) }, delegate: delegate, targets: targets, registry: kit.types)
        else { throw DragboardError.unprocessable("nothing to drag") }
        engine.setUser(user)
        return engine
    }

    /// The engine of a drag of whole lists by their headers: they travel by id (a type only this
    /// server reads), and the board, as the collection of its lists, is the only target.
    /// - Throws: ``DragboardError/notFound(_:)`` for an unknown list.
    package static func listsEngine(_ ids: [String], lists: [ListRecord], targets: DropTargets, kit: BoardKit, user: DragUser?) throws -> SessionEngine {
        var items: [Int: DragItem] = [:]
        for id in ids {
            guard let index = lists.firstIndex(where: { $0.id == id }) else { throw DragboardError.notFound("unknown list \(id)") }
            var provider = ItemProvider()
            provider.suggestedName = lists[index].title
            provider.registerData(Data(id.utf8), forTypeIdentifier: BoardKit.listReference, visibility: .ownProcess)
            items[index] = DragItem(itemProvider: provider, localObject: id)
        }
        let delegate = BoardDragDelegate(items: items, source: DragSource(listID: BoardKit.listsTargetID, title: "the board"))
        return try engine(from: ListTarget(id: BoardKit.listsTargetID, rowCount: lists.count), rows: Array(items.keys), delegate: delegate,
                          targets: targets, kit: kit, user: user)
    }
}
