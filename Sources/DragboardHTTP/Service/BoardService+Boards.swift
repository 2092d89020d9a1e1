import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// Creates a board named `title` (an operation like a drop: a retried `op` creates nothing
    /// new and answers the same board), undone through `author`'s history. Returns the board's id.
    /// `creator` becomes its owner (nil on a server without accounts).
    func createBoard(title: String, color: PaletteColor = .boardDefault, op: String, author: ChangeAuthor?, creator: Account? = nil) throws -> String {
        let title = try Self.checkedTitle(title)
        let id = Self.newID()
        let result = try store.createBoard(id: id, title: title, color: color, operationID: op,
                                           fingerprint: Self.fingerprint("new-board", title, color.rawValue)) { tx in
            if let author {
                tx.recordUndo(for: author.undoOwner, actionName: "Create the board \(title)")
                tx.recordActivity(by: author.name, Activity.words(of: author.name, "Created the board \(title)."))
            }
            if let creator { try tx.addOwner(creator) }
            return try Self.json(BoardCreated(board: id))
        }
        let created = try JSONDecoder().decode(BoardCreated.self, from: Data(result.response.utf8))
        return created.board
    }

    /// What creating a board answers (and a retry finds again).
    struct BoardCreated: Codable {
        var board: String
    }

    /// A title as it is stored: trimmed, and checked against ``WireGrammar/titleProblem(_:)``.
    static func checkedTitle(_ title: String) throws -> String {
        if let problem = WireGrammar.titleProblem(title) { throw DragboardError.badRequest(problem) }
        return title.trimmingCharacters(in: .whitespaces)
    }

    /// A new id for a board, list or row: random, so ids never collide across boards.
    static func newID() -> String {
        UUID().uuidString.lowercased()
    }

    /// The fingerprint of a form operation: what it does and to what.
    static func fingerprint(_ parts: String...) -> String {
        BoardStore.fingerprint(of: Array(parts.joined(separator: "\u{1F}").utf8))
    }
}
