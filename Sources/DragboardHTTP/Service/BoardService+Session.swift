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
        if request.list == BoardKit.listsTargetID {
            return try beginListDrag(request, board: board, owner: owner, address: address, user: user, account: visitor?.account?.id)
        }
        // One read finds the source (an open container's contents first) and, for a list,
        // everything the drag and its answer need (the domain's ``DragStart``).
        let kit = self.kit
        let find = { (tx: BoardTransaction) in try DragStart.find(request.items, in: request.list, kit: kit, on: tx, version: tx.baseVersion) }
        // One row picked up (nearly every drag): its place comes with the board's state, in one statement.
        let source = try request.items.count == 1 ? store.read(board: board, picking: request.items[0], inList: request.list, find)
            : store.read(board: board, find)
        switch source {
        case .container(let container):
            return try beginContainerDrag(request, from: container, board: board, owner: owner, address: address, user: user)
        case .list(let start):
            return try startDrag(try start.engine(kit: kit, user: user), version: start.version, request: request, owner: owner, address: address,
                                 board: board, position: start.position, words: start.words, visitor: visitor)
        }
    }

    /// The part every drag start shares, wherever its rows come from: the session is kept, and the
    /// answer carries the proposal table and the pick-up words (`position`: the first dragged row's
    /// index, when the caller has it, so it is not counted twice; `words`: the answer's words, when
    /// the caller read them with the rows, so they cost no read of their own).
    func startDrag(_ engine: SessionEngine, version: Int, request: BoardAPI.BeginRequest, owner: String, address: String?, board: String,
                   position: Int? = nil, words: DragWords.PickUp? = nil, visitor: Visitor? = nil) throws -> BoardAPI.BeginResponse {
        var engine = engine
        let table = BoardAPI.Table(engine.proposalTable())
        let dragSession = engine.dragSession
        let user = engine.dropSession.user
        let token = try sessions.insert(engine, token: request.token, owner: owner, address: address, user: visitor?.account?.id, board: board,
                                        version: version)
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
        return BoardAPI.EndResponse(operation: outcome.operation, target: outcome.target.map(BoardAPI.Target.init), version: entry.reached.withLock { $0 },
                                    announcement: dropped ? nil : cancelAnnouncement(engine, board: entry.board))
    }

    /// `dragstart` on a list's header (see ``DragStart/listsEngine(_:lists:targets:kit:user:)``).
    private func beginListDrag(_ request: BoardAPI.BeginRequest, board: String, owner: String, address: String?, user: DragUser?,
                               account: String?) throws -> BoardAPI.BeginResponse {
        let (version, lists, targets) = try store.read(board: board) { tx in
            (tx.baseVersion, try tx.lists(), try tx.dropTargets(kit, movingLists: true))
        }
        var engine = try DragStart.listsEngine(request.items, lists: lists, targets: targets, kit: kit, user: user)
        let table = BoardAPI.Table(engine.proposalTable())
        let token = try sessions.insert(engine, token: request.token, owner: owner, address: address, user: account, board: board, version: version,
                                        movesLists: true)
        return try announced(BoardAPI.BeginResponse(token: token, version: version, count: engine.dropSession.items.count, allowsMove: true,
                                                     restricted: true, table: table),
                             request: request, board: board, refusal: user?.refusal)
    }
}
