import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

/// Containers whose contents are lists of their own: drags that start inside one, drops into one
/// at an index, and the container a move took rows out of, shown again with its new contents.
extension BoardService {
    /// The container row named `id` on the board `tx` reads, when its contents are a list of their own.
    func contentsListContainer(_ id: String, tx: BoardTransaction) throws -> ItemRecord? {
        guard let item = try? tx.item(id), item.containerID == nil, kit.hasContentsList(item.kind),
              try tx.lists().contains(where: { $0.id == item.listID }) else { return nil }
        return item
    }

    /// The title and row count of a target list: a list of the board, or a container's contents.
    func titledList(_ id: String, tx: BoardTransaction) throws -> (title: String, rowCount: Int)? {
        if let list = try tx.lists().first(where: { $0.id == id }) { return (list.title, try tx.rowCount(in: list.id)) }
        guard let container = try contentsListContainer(id, tx: tx) else { return nil }
        return (container.title, try tx.rowCount(container.listID, container.id))
    }

    /// `dragstart` on rows inside an open container: the container's contents are the source list.
    func beginContainerDrag(_ request: BoardAPI.BeginRequest, from container: ItemRecord, board: String, owner: String, address: String?) throws -> BoardAPI.BeginResponse {
        let (version, rowCount, dragged, targets) = try store.read(board: board) { tx in
            let dragged = try request.items.map { id -> (Int, BoardItem) in
                guard let row = try tx.index(of: id, inContainer: container.id) else { throw DragboardError.notFound("item \(id) is not in \(container.title)") }
                return (row, BoardItem(try tx.item(id)))
            }
            let rows = Dictionary(dragged, uniquingKeysWith: { first, _ in first })
            guard rows.count == dragged.count else { throw DragboardError.unprocessable("an item is listed twice") }
            return (tx.baseVersion, try tx.rowCount(container.listID, container.id), rows, try tx.dropTargets(kit))
        }
        let items = dragged.mapValues { DragItem(itemProvider: kit.itemProvider(for: $0), localObject: $0.id) }
        let delegate = BoardDragDelegate(items: items, source: DragSource(listID: container.id, title: container.title))
        return try startDrag(from: ListTarget(id: container.id, rowCount: rowCount), rows: Array(dragged.keys), delegate: delegate, targets: targets,
                             version: version, request: request, owner: owner, address: address, board: board,
                             position: dragged.first { $0.value.id == request.items.first }?.key)
    }

    /// Applies a drop and, when it moved rows out of a container, shows that container again
    /// (its count and contents changed) to every viewer.
    func apply(_ result: SessionEngine.DropResult, session: DropSession, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        let source = try session.dragSource.flatMap { try contentsListContainer($0.listID, tx: tx) }
        var applied = try applyPlacements(result, session: session, tx: tx, storedFiles: &storedFiles)
        if let source, result.proposal.operation == .move, !applied.changes.contains(where: { $0.kind == .replace && $0.item == source.id }) {
            applied.changes.append(try containerChange(source.id, tx: tx))
        }
        return applied
    }

    /// A drop into a container's contents at an index: the rows land inside it, keeping their
    /// fractional order keys, and the container is shown again with them.
    func applyToContainer(_ container: ItemRecord, _ result: SessionEngine.DropResult, tx: BoardTransaction, storedFiles: inout [URL]) throws -> Applied {
        guard let list = try tx.lists().first(where: { $0.id == container.listID }), let kind = kit.listKind(list.kind) else {
            throw DragboardError.notFound("unknown list \(container.listID)")
        }
        let indexes = result.placements.compactMap { placement -> Int? in
            if case .row(let indexPath) = placement.destination { indexPath.row } else { nil }
        }
        guard let index = indexes.first, indexes.count == result.placements.count else {
            throw DragboardError.unprocessable("\(container.title) takes rows at an index only")
        }
        let placement = Placement(listID: container.listID, containerID: container.id, index: index)
        let (_, moved, names) = try land(result.placements, at: placement, in: list, kind: kind, tx: tx, storedFiles: &storedFiles)
        var changes = moved.map { BoardAPI.Change(kind: .remove, item: $0) }
        changes.append(try containerChange(container.id, tx: tx))
        let verb = result.proposal.operation == .move ? "Put" : "Copied"
        return Applied(changes: changes, message: "\(verb) \(Self.names(names)) into \(container.title).")
    }

    /// The container row to swap in (rendered with its contents after the commit) for every viewer.
    private func containerChange(_ id: String, tx: BoardTransaction) throws -> BoardAPI.Change {
        .init(kind: .replace, item: id, list: try tx.item(id).listID)
    }
}
