import DragAndDrop

/// What one person may do on one board, and the words when they may not: the one place those
/// rules and words live, for every input (pointer, keyboard, touch, menu, forms).
public struct BoardAccess: Sendable, Hashable {
    /// Who; nil where nobody signs in (a server with no accounts, on loopback only), which may do everything.
    public var account: Account?
    /// Their role on the board (owner for an admin, and where nobody signs in).
    public var role: BoardRole
    /// The board.
    public var boardID: String
    /// Its title, for words that name it.
    public var boardTitle: String

    public init(account: Account?, role: BoardRole, boardID: String, boardTitle: String) {
        self.account = account
        self.role = role
        self.boardID = boardID
        self.boardTitle = boardTitle
    }

    public var mayEdit: Bool { role.mayEdit }
    public var mayManage: Bool { role == .owner }

    /// The words for a viewer who tries to change the board.
    public static let viewOnly = "You can view this board but not change it."

    /// Why this person may not change the board; nil when they may.
    public var editRefusal: String? { mayEdit ? nil : Self.viewOnly }

    /// Throws the refusal of a change this person may not make.
    public func requireEditor() throws(DragboardError) {
        if let editRefusal { throw .forbidden(editRefusal) }
    }

    /// Throws unless this person owns the board.
    public func requireOwner() throws(DragboardError) {
        guard mayManage else { throw .forbidden("Only an owner of this board can do that.") }
    }

    /// The person as a drag session sees them, dragging from `source` (nil: from another app)
    /// to this board: a drop needs an editor here, and a move or copy between two boards an
    /// editor on both; the refusal names the board when the drag crosses boards.
    public func dragUser(from source: BoardAccess?) -> DragUser? {
        guard let account else { return nil }
        let crossesBoards = source.map { $0.boardID != boardID } ?? false
        var refusal: String?
        if !mayEdit {
            refusal = crossesBoards ? "You can view “\(boardTitle)” but not change it." : Self.viewOnly
        } else if let source, crossesBoards, !source.mayEdit {
            refusal = "You can view “\(source.boardTitle)” but not change it."
        }
        return DragUser(name: account.name, sourceRole: source?.role, destinationRole: role, refusal: refusal)
    }
}
