import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

/// Containers whose contents are lists of their own: drags that start inside one (drops into one
/// land through the domain's ``DropLanding``).
extension BoardService {
    /// `dragstart` on rows inside an open container: the container's contents are the source list.
    func beginContainerDrag(_ request: BoardAPI.BeginRequest, from container: ItemRecord, board: String, owner: String, address: String?, user: DragUser?) throws -> BoardAPI.BeginResponse {
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
        let engine = try DragStart.engine(from: ListTarget(id: container.id, rowCount: rowCount), rows: Array(dragged.keys), delegate: delegate,
                                          targets: targets, kit: kit, user: user)
        return try startDrag(engine, version: version, request: request, owner: owner, address: address, board: board,
                             position: dragged.first { $0.value.id == request.items.first }?.key)
    }
}
