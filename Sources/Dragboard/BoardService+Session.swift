import DragAndDrop
import Foundation
import Synchronization

extension BoardService {
    /// `dragstart`: begins a session for rows of one list (the selection, in list order) and
    /// answers with the proposal table of every target on the page.
    func begin(_ request: BoardAPI.BeginRequest, owner: String) throws -> BoardAPI.BeginResponse {
        guard !request.items.isEmpty, request.items.count <= 500 else { throw DragboardError.unprocessable("a drag carries 1 to 500 items") }
        guard Set(request.items).count == request.items.count else { throw DragboardError.unprocessable("an item is listed twice") }
        let snapshot = try store.snapshot()
        guard let list = snapshot.lists.first(where: { $0.id == request.list }) else { throw DragboardError.notFound("unknown list \(request.list)") }
        let rows = snapshot.rows(in: list.id).map(BoardItem.init)
        let indexByID = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
        let indexPaths = try request.items.map { id -> IndexPath in
            guard let row = indexByID[id] else { throw DragboardError.notFound("item \(id) is not in list \(list.id)") }
            return IndexPath(row: row)
        }
        let source = ListTarget(id: list.id, rowCount: rows.count)
        guard var engine = SessionEngine.beginDrag(from: source, at: indexPaths, delegate: BoardDragDelegate(rows: rows, title: list.title),
                                                   targets: try snapshot.dropTargets(), registry: BoardTypes.registry)
        else { throw DragboardError.unprocessable("nothing to drag") }
        let table = BoardAPI.Table(engine.proposalTable())
        let dragSession = engine.dragSession
        let token = try sessions.insert(engine, token: request.token, owner: owner)
        return BoardAPI.BeginResponse(token: token, version: snapshot.version, count: engine.dropSession.items.count,
                                      allowsMove: dragSession?.allowsMoveOperation ?? false,
                                      restricted: dragSession?.isRestrictedToDraggingApplication ?? false, table: table)
    }

    /// A change of target (or leaving every target): runs exit, canHandle, enter and update.
    func target(_ token: String, _ request: BoardAPI.TargetRequest, owner: String) throws -> BoardAPI.TargetResponse {
        let entry = try sessions.entry(token, owner: owner)
        let targets = try store.snapshot().dropTargets()
        return try entry.engine.withLock { engine in
            var working = engine
            working.updateTargets(targets)
            working.setCopyModifierPressed(request.copy ?? false)
            guard let target = request.target else {
                if let current = working.currentTarget { try working.exit(current) }
                engine = working
                return BoardAPI.TargetResponse(handled: false)
            }
            let id = try target.id
            guard try working.enter(id) else {
                engine = working
                return BoardAPI.TargetResponse(handled: false)
            }
            let resolved = try working.update(id, at: try request.location?.dropLocation ?? .noRow)
            engine = working
            return BoardAPI.TargetResponse(handled: true, proposal: .init(resolved.proposal), destination: resolved.destinationIndexPath?.row)
        }
    }

    /// `dragend`: ends the session. Every entered target hears did-end, and the source learns
    /// the operation from the server — never from the browser's `dropEffect`.
    func end(_ token: String, owner: String) throws -> BoardAPI.EndResponse {
        let entry = try sessions.entry(token, owner: owner)
        let outcome = entry.engine.withLock { $0.end() }
        sessions.remove(token)
        return BoardAPI.EndResponse(operation: outcome.operation, target: outcome.target.map(BoardAPI.Target.init), version: try store.version())
    }
}
