import DragAndDrop
import Dragboard
import DragboardStore
import Synchronization

extension BoardService {
    /// What `visitor` may do on `board`. - Throws: 404 for a non-member (or no such board).
    func access(_ visitor: Visitor, board: String) throws -> BoardAccess {
        try gate.access(visitor, board: board)
    }

    /// The person as a drag from `source` over `dropBoard` sees them (nil where nobody signs in),
    /// read again at every target change and drop: a role lowered mid-drag takes effect at once.
    /// A source they lost their place on counts as one they may only view.
    func dragUser(_ visitor: Visitor, source: String?, drop dropBoard: String) throws -> DragUser? {
        guard let account = visitor.account else { return nil }
        let target = try access(visitor, board: dropBoard)
        guard let source else { return target.dragUser(from: nil) }
        let from = source == dropBoard ? target
            : (try? access(visitor, board: source)) ?? BoardAccess(account: account, role: .viewer, boardID: source, boardTitle: "the board it came from")
        return target.dragUser(from: from)
    }

    /// The person of a drag in progress, with the drag ended if they lost their place on the
    /// board it is over: the answer says why.
    func dragUser(of entry: DragSessions.Entry, token: String, visitor: Visitor) throws -> DragUser? {
        do {
            return try dragUser(visitor, source: entry.engine.withLock { $0.dragSession == nil } ? nil : entry.board, drop: entry.dropBoard.withLock { $0 })
        } catch DragboardError.notFound {
            sessions.remove(token)
            throw DragboardError.notFound("This drag was cancelled: you are no longer a member of this board.")
        }
    }
}
