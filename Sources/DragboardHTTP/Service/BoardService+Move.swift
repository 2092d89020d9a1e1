import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// A destination of a row's move page: a target its drop would be taken on.
    struct MoveDestination: Sendable {
        /// `list:<id>` or `zone:<id>`, the form's value.
        var value: String
        /// "Move to Done", "Copy to Archive": the server's words, operation named.
        var label: String
    }

    /// The destinations a drop of `item` would be taken on, decided by the engine as for a drag
    /// (a session begins and ends): the move page's choices.
    /// `nowhere`: what the page says when there is no destination (for a viewer, why).
    func moveDestinations(board: String, item itemID: String, owner: String, visitor: Visitor? = nil) throws
        -> (title: String, destinations: [MoveDestination], nowhere: String?) {
        let (title, listID) = try store.read(board: board) { tx in
            let item = try tx.itemOnBoard(itemID)
            return (item.title, try sourceList(of: item, tx: tx))
        }
        let token = DragSessions.randomToken()
        let begun = try begin(BoardAPI.BeginRequest(token: token, list: listID, items: [itemID], board: board), owner: owner, visitor: visitor)
        _ = try? end(token, owner: owner, visitor: visitor)
        let destinations = begun.table.targets.compactMap { entry -> MoveDestination? in
            guard let label = entry.menu else { return nil }
            return MoveDestination(value: entry.target.list.map { "list:\($0)" } ?? "zone:\(entry.target.zone ?? "")", label: label)
        }
        return (title, destinations, begun.nowhere)
    }

    /// The move form without JavaScript: begins a session for the row, drops it at the end of
    /// the chosen target (or on the zone) through the engine, and ends the session. A refusal
    /// changes nothing and says why.
    func moveItem(board: String, item itemID: String, to destination: String, op: String, owner: String, visitor: Visitor? = nil) throws -> EditResponse {
        let target = try Self.moveTarget(destination)
        let (listID, rowCount, version) = try store.read(board: board) { tx -> (String, Int, Int) in
            let item = try tx.itemOnBoard(itemID)
            let source = try sourceList(of: item, tx: tx)
            guard let list = target.list else { return (source, 0, tx.baseVersion) }
            // A list of the board, or an open container's contents.
            guard let counted = try tx.titledList(list, kit: kit) else { throw DragboardError.notFound("unknown list \(list)") }
            return (source, counted.rowCount, tx.baseVersion)
        }
        let token = DragSessions.randomToken()
        _ = try begin(BoardAPI.BeginRequest(token: token, list: listID, items: [itemID], board: board), owner: owner, visitor: visitor)
        defer { _ = try? end(token, owner: owner, visitor: visitor) }
        // The end of a list: over the bottom of its last row, as a pointer would be.
        let location = target.list != nil && rowCount > 0 ? BoardAPI.Location(row: rowCount - 1, fraction: 1, item: nil) : nil
        let json = try drop(token, BoardAPI.DropRequest(op: op, version: version, target: target, location: location), owner: owner, visitor: visitor)
        let answer = try JSONDecoder().decode(BoardAPI.DropResponse.self, from: Data(json.utf8))
        guard answer.operation == .move || answer.operation == .copy else {
            throw DragboardError.unprocessable(answer.reason.map { "Not moved: \($0)." } ?? "Not moved: \(answer.message)")
        }
        return EditResponse(version: answer.version, changes: answer.changes, message: answer.message, location: "/boards/\(board)")
    }

    /// The list a move of `item` starts from: its list, or the container whose contents are a list
    /// of their own that holds it.
    private func sourceList(of item: ItemRecord, tx: BoardTransaction) throws -> String {
        guard let container = item.containerID else { return item.listID }
        guard try tx.contentsListContainer(container, kit: kit) != nil else {
            throw DragboardError.conflict("\(item.title) is inside another row; take it out first")
        }
        return container
    }

    /// `list:<id>` or `zone:<id>`.
    private static func moveTarget(_ value: String) throws -> BoardAPI.Target {
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, WireGrammar.idProblem(parts[1]) == nil else {
            throw DragboardError.badRequest("to names a destination as list:<id> or zone:<id>")
        }
        switch parts[0] {
        case "list": return BoardAPI.Target(.list(parts[1]))
        case "zone": return BoardAPI.Target(.zone(parts[1]))
        default: throw DragboardError.badRequest("to names a destination as list:<id> or zone:<id>")
        }
    }
}
