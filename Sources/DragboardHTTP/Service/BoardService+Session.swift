import DragAndDrop
import Dragboard
import DragboardStore
import Foundation
import Synchronization

extension BoardService {
    /// `dragstart`: begins a session for rows of one list (the selection, in list order) and
    /// answers with the proposal table of every target on the page.
    /// `visitor`: who drags (a non-member of the board gets 404; a viewer may drag, to other apps only).
    func begin(_ request: BoardAPI.BeginRequest, owner: String, address: String? = nil, visitor: Visitor? = nil) throws -> BoardAPI.BeginResponse {
        guard !request.items.isEmpty, request.items.count <= BoardAPI.BeginRequest.maximumItems else {
            throw DragboardError.unprocessable("a drag carries 1 to \(BoardAPI.BeginRequest.maximumItems) items")
        }
        guard Set(request.items).count == request.items.count else { throw DragboardError.unprocessable("an item is listed twice") }
        // Only the dragged rows and each list's row count are read: drag start costs the same
        // whatever the lists' lengths (apart from delegates that look at every row).
        let board = request.board ?? BoardStore.defaultBoardID
        let user = try visitor.flatMap { try dragUser($0, source: board, drop: board) }
        if request.list == BoardKit.listsTargetID { return try beginListDrag(request, board: board, owner: owner, address: address, user: user) }
        // One read finds the source (an open container's contents first) and, for a list,
        // everything the drag and its answer need.
        let source = try store.read(board: board) { tx -> ListDragSource in
            if let container = try tx.contentsListContainer(request.list, kit: kit) { return .container(container) }
            let lists = try tx.lists()
            guard let list = lists.first(where: { $0.id == request.list }) else { throw DragboardError.notFound("unknown list \(request.list)") }
            let dragged = try request.items.map { id -> (Int, BoardItem) in
                guard let row = try tx.index(of: id, in: list.id) else { throw DragboardError.notFound("item \(id) is not in list \(list.id)") }
                return (row, BoardItem(try tx.item(id)))
            }
            // Two ids naming one row (which the grammar should already make impossible) are a
            // refusal, never a trap.
            let rows = Dictionary(dragged, uniquingKeysWith: { first, _ in first })
            guard rows.count == dragged.count else { throw DragboardError.unprocessable("an item is listed twice") }
            let targets = try tx.dropTargets(kit)
            let position = rows.first { $0.value.id == request.items.first }?.key
            let rowCount = try tx.rowCount(in: list.id)
            let known = DragWords.KnownSource(lists: lists, titles: dragged.map(\.1.title), rowCount: rowCount)
            let words = try self.words.pickedUp(request.items, from: request.list, targetLists: targets.lists.map(\.target.id), position: position,
                                                on: tx, source: known)
            return .list(ListDragStart(version: tx.baseVersion, list: list, rowCount: rowCount, dragged: rows,
                                       targets: targets, position: position, words: words))
        }
        let start: ListDragStart
        switch source {
        case .container(let container): return try beginContainerDrag(request, from: container, board: board, owner: owner, address: address, user: user)
        case .list(let found): start = found
        }
        let items = start.dragged.mapValues { DragItem(itemProvider: kit.itemProvider(for: $0), localObject: $0.id) }
        let delegate = kit.listKind(start.list.kind)?.dragDelegate(for: start.list, items: items)
            ?? BoardDragDelegate(items: items, source: DragSource(listID: start.list.id, title: start.list.title))
        return try startDrag(from: ListTarget(id: start.list.id, rowCount: start.rowCount), rows: Array(start.dragged.keys), delegate: delegate,
                             targets: start.targets, version: start.version, request: request, owner: owner, address: address, board: board,
                             position: start.position, words: start.words, user: user, visitor: visitor)
    }

    /// Where a drag starts: an open container's contents, or a list with all a drag from it needs.
    private enum ListDragSource {
        case container(ItemRecord)
        case list(ListDragStart)
    }

    /// What one read gives a drag from a list: its rows by index, the targets and the answer's words.
    private struct ListDragStart {
        var version: Int
        var list: ListRecord
        var rowCount: Int
        var dragged: [Int: BoardItem]
        var targets: DropTargets
        var position: Int?
        var words: DragWords.PickUp
    }

    /// The part every drag start shares, wherever its rows come from: the engine begins the drag,
    /// the session is kept, and the answer carries the proposal table and the pick-up words
    /// (`position`: the first dragged row's index, when the caller has it, so it is not counted twice;
    /// `words`: the answer's words, when the caller read them with the rows, so they cost no read of their own).
    func startDrag(from source: ListTarget, rows: [Int], delegate: any ListDragDelegate, targets: DropTargets, version: Int,
                   request: BoardAPI.BeginRequest, owner: String, address: String?, board: String, position: Int? = nil,
                   words: DragWords.PickUp? = nil, user: DragUser? = nil, visitor: Visitor? = nil) throws -> BoardAPI.BeginResponse {
        guard var engine = SessionEngine.beginDrag(from: source, at: rows.map { IndexPath(row: $0) }, delegate: delegate, targets: targets, registry: kit.types)
        else { throw DragboardError.unprocessable("nothing to drag") }
        engine.setUser(user)
        let table = BoardAPI.Table(engine.proposalTable())
        let dragSession = engine.dragSession
        let token = try sessions.insert(engine, token: request.token, owner: owner, address: address, board: board)
        if user != nil, let entry = try? sessions.entry(token, owner: owner) { tellDragging(entry, token: token, visitor: visitor) }
        return try announced(BoardAPI.BeginResponse(token: token, version: version, count: engine.dropSession.items.count,
                                                     allowsMove: dragSession?.allowsMoveOperation ?? false,
                                                     restricted: dragSession?.isRestrictedToDraggingApplication ?? false, table: table),
                             request: request, board: board, position: position, words: words, refusal: user?.refusal)
    }

    /// A change of target (or leaving every target): runs exit, canHandle, enter and update.
    func target(_ token: String, _ request: BoardAPI.TargetRequest, owner: String, visitor: Visitor? = nil) throws -> BoardAPI.TargetResponse {
        let entry = try sessions.entry(token, owner: owner)
        let user = try visitor.flatMap { try dragUser(of: entry, token: token, visitor: $0) }
        let board = entry.dropBoard.withLock { $0 }
        let targets = try store.read(board: board) { try $0.dropTargets(kit, movingLists: entry.movesLists) }
        var resolution: (ResolvedProposal, DropTargetID, DragSession?)?
        var targetChanged = false
        var answer = try entry.engine.withLock { engine -> BoardAPI.TargetResponse in
            let before = engine.currentTarget
            defer { targetChanged = engine.currentTarget != before }
            var working = engine
            working.updateTargets(targets)
            if visitor?.account != nil { working.setUser(user) }
            working.setCopyModifierPressed(request.copy ?? false)
            guard let target = request.target else {
                // Leaving after the drop (the source window hears of a drop in another window
                // only at its dragend) changes nothing: not a conflict.
                if working.phase == .dragging, let current = working.currentTarget { try working.exit(current) }
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
            resolution = (resolved, id, working.dragSession)
            return BoardAPI.TargetResponse(handled: true, proposal: .init(resolved.proposal), destination: resolved.destinationIndexPath?.row)
        }
        if targetChanged { tellDragging(entry, token: token, visitor: visitor) }
        // Composed outside the session's lock: reading titles must not hold up its other requests.
        if let (resolved, id, dragSession) = resolution {
            answer.announcement = try announcement(for: resolved.proposal, at: resolved.destinationIndexPath?.row, on: id, location: request.location, dragSession: dragSession, board: board)
        } else if let target = request.target, let id = try? target.id {
            answer.announcement = try announcement(for: .cancel, at: nil, on: id, location: nil, dragSession: nil, board: board)
        }
        return answer
    }

    /// `dragend`: ends the session. Every entered target hears did-end, and the source learns
    /// the operation from the server — never from the browser's `dropEffect`.
    func end(_ token: String, owner: String, visitor: Visitor? = nil) throws -> BoardAPI.EndResponse {
        let entry = try sessions.entry(token, owner: owner)
        let (outcome, engine) = entry.engine.withLock { engine in (engine.end(), engine) }
        sessions.remove(token)
        tellDragging(entry, token: token, visitor: visitor, ended: true)
        let dropped = outcome.operation == .move || outcome.operation == .copy
        return BoardAPI.EndResponse(operation: outcome.operation, target: outcome.target.map(BoardAPI.Target.init), version: try store.version(board: entry.board),
                                    announcement: dropped ? nil : cancelAnnouncement(engine, board: entry.board))
    }

    /// `dragstart` on a list's header: the lists travel by id (a type only this server reads),
    /// and the board, as the collection of its lists, is the only target.
    private func beginListDrag(_ request: BoardAPI.BeginRequest, board: String, owner: String, address: String?, user: DragUser?) throws -> BoardAPI.BeginResponse {
        let (version, lists, targets) = try store.read(board: board) { tx in
            (tx.baseVersion, try tx.lists(), try tx.dropTargets(kit, movingLists: true))
        }
        var items: [Int: DragItem] = [:]
        for id in request.items {
            guard let index = lists.firstIndex(where: { $0.id == id }) else { throw DragboardError.notFound("unknown list \(id)") }
            var provider = ItemProvider()
            provider.suggestedName = lists[index].title
            provider.registerData(Data(id.utf8), forTypeIdentifier: BoardKit.listReference, visibility: .ownProcess)
            items[index] = DragItem(itemProvider: provider, localObject: id)
        }
        let source = ListTarget(id: BoardKit.listsTargetID, rowCount: lists.count)
        let delegate = BoardDragDelegate(items: items, source: DragSource(listID: BoardKit.listsTargetID, title: "the board"))
        guard var engine = SessionEngine.beginDrag(from: source, at: items.keys.map { IndexPath(row: $0) }, delegate: delegate,
                                                   targets: targets, registry: kit.types)
        else { throw DragboardError.unprocessable("nothing to drag") }
        engine.setUser(user)
        let table = BoardAPI.Table(engine.proposalTable())
        let token = try sessions.insert(engine, token: request.token, owner: owner, address: address, board: board, movesLists: true)
        return try announced(BoardAPI.BeginResponse(token: token, version: version, count: items.count, allowsMove: true, restricted: true, table: table),
                             request: request, board: board, refusal: user?.refusal)
    }
}
