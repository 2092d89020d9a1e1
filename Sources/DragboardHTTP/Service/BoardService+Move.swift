import DragAndDrop
import Dragboard
import DragboardStore
import Foundation

extension BoardService {
    /// A destination of a row's move page: a target its drop would be taken on, at a place.
    struct MoveDestination: Sendable {
        /// `list:<id>` (its bottom), `list:<id>@top`, `list:<id>@after:<row>` or `zone:<id>`: the form's value.
        var value: String
        /// "Move to Done", "Copy to Archive", "after Write tests": the server's words.
        var label: String
    }

    /// The destinations of one target, grouped on the page under its menu words.
    struct MoveTarget: Sendable {
        var label: String
        var positions: [MoveDestination]
    }

    /// A list's rows offered as "after <card>" positions (a longer list offers its top and bottom, and these).
    static let movePlacesPerList = 50

    /// The destinations a drop of `item` would be taken on in `toBoard` (its own board when nil),
    /// decided by the engine as for a drag (a session begins, joins that board's window, and
    /// ends): the move page's choices, each list with its top, its bottom and after each of its
    /// first cards. `nowhere`: what the page says when there is no destination (for a viewer, why).
    func moveDestinations(board: String, item itemID: String, owner: String, visitor: Visitor? = nil, toBoard: String? = nil) throws
        -> (title: String, targets: [MoveTarget], nowhere: String?) {
        let toBoard = toBoard ?? board
        let (title, listID) = try store.read(board: board) { tx in
            let item = try tx.itemOnBoard(itemID)
            return (item.title, try sourceList(of: item, tx: tx))
        }
        let token = DragSessions.randomToken()
        var begun = try begin(BoardAPI.BeginRequest(token: token, list: listID, items: [itemID], board: board), owner: owner, visitor: visitor)
        defer { _ = try? end(token, owner: owner, visitor: visitor) }
        if toBoard != board { begun = try menuNamed(try join(token, board: toBoard, owner: owner, visitor: visitor), board: toBoard) }
        let entries = begun.table.targets.filter { $0.menu != nil }
        let rows = try store.read(board: toBoard) { tx in
            try entries.compactMap(\.target.list).reduce(into: [String: [ItemRecord]]()) { rows, list in
                rows[list] = try tx.firstRows(listID: list, containerID: nil, limit: Self.movePlacesPerList + 1).filter { $0.id != itemID }
            }
        }
        let targets = entries.map { entry -> MoveTarget in
            let label = entry.menu ?? ""
            guard let list = entry.target.list else { return MoveTarget(label: label, positions: [MoveDestination(value: "zone:\(entry.target.zone ?? "")", label: label)]) }
            let cards = rows[list] ?? []
            var positions = [MoveDestination(value: "list:\(list)", label: "\(label), at the bottom")]
            if !cards.isEmpty { positions.append(MoveDestination(value: "list:\(list)@top", label: "\(label), at the top")) }
            positions += cards.prefix(Self.movePlacesPerList).map { MoveDestination(value: "list:\(list)@after:\($0.id)", label: "\(label), after \($0.title)") }
            return MoveTarget(label: label, positions: positions)
        }
        return (title, targets, begun.nowhere)
    }

    /// A joined window's table with its menu words, named from that board's lists (a begin's are
    /// named by ``announced(_:request:board:position:words:refusal:)`` from the board it began on).
    private func menuNamed(_ response: BoardAPI.BeginResponse, board: String) throws -> BoardAPI.BeginResponse {
        var response = response
        let titles = try store.read(board: board) { tx in
            try Dictionary(tx.lists().map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        }
        for index in response.table.targets.indices {
            let entry = response.table.targets[index]
            let end = entry.runs.last?.proposal ?? entry.noRow
            guard let list = entry.target.list, let name = titles[list], entry.handled,
                  end.op == .move || end.op == .copy else { continue }
            response.table.targets[index].menu = Announcement.destination(name, operation: end.op)
        }
        if !response.table.targets.contains(where: { $0.menu != nil }) { response.nowhere = response.nowhere ?? "No list of that board takes it." }
        return response
    }

    /// The move form without JavaScript: begins a session for the row, joins `toBoard`'s window
    /// when it is another board, drops it at the chosen place of the chosen target through the
    /// engine, and ends the session. A refusal changes nothing and says why.
    func moveItem(board: String, item itemID: String, to destination: String, toBoard: String? = nil, op: String, owner: String,
                  visitor: Visitor? = nil) throws -> EditResponse {
        let toBoard = toBoard ?? board
        let (target, place) = try Self.moveTarget(destination)
        let listID = try store.read(board: board) { tx in try sourceList(of: try tx.itemOnBoard(itemID), tx: tx) }
        let (location, version) = try store.read(board: toBoard) { tx -> (BoardAPI.Location?, Int) in
            guard let list = target.list else { return (nil, tx.baseVersion) }
            // A list of the board, or an open container's contents.
            guard let counted = try tx.titledList(list, kit: kit) else { throw DragboardError.notFound("unknown list \(list)") }
            return (try Self.location(of: place, in: list, rowCount: counted.rowCount, tx: tx), tx.baseVersion)
        }
        let token = DragSessions.randomToken()
        _ = try begin(BoardAPI.BeginRequest(token: token, list: listID, items: [itemID], board: board), owner: owner, visitor: visitor)
        defer { _ = try? end(token, owner: owner, visitor: visitor) }
        if toBoard != board { _ = try join(token, board: toBoard, owner: owner, visitor: visitor) }
        let json = try drop(token, BoardAPI.DropRequest(op: op, version: version, target: target, location: location), owner: owner, visitor: visitor)
        let answer = try JSONDecoder().decode(BoardAPI.DropResponse.self, from: Data(json.utf8))
        guard answer.operation == .move || answer.operation == .copy else {
            throw DragboardError.unprocessable(answer.reason.map { "Not moved: \($0)." } ?? "Not moved: \(answer.message)")
        }
        return EditResponse(version: answer.version, changes: answer.changes, message: answer.message, location: "/boards/\(board)")
    }

    /// Where in a list a place is, as a pointer would be: over the top of the first row, over the
    /// bottom of the row to go after (named, so a list changed since still finds it), or over the
    /// bottom of the last row.
    private static func location(of place: MovePlace, in list: String, rowCount: Int, tx: BoardTransaction) throws -> BoardAPI.Location? {
        switch place {
        case .bottom:
            return rowCount > 0 ? BoardAPI.Location(row: rowCount - 1, fraction: 1, item: nil) : nil
        case .top:
            return rowCount > 0 ? BoardAPI.Location(row: 0, fraction: 0, item: try tx.rowID(at: 0, inList: list)) : nil
        case .after(let row):
            guard let index = try tx.index(of: row, in: list) else {
                throw DragboardError.conflict("the card to go after is no longer in that list; choose the place again")
            }
            return BoardAPI.Location(row: index, fraction: 1, item: row)
        }
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

    /// Where in a list a moved row goes.
    enum MovePlace: Equatable {
        case top, bottom
        case after(String)
    }

    /// `list:<id>`, `list:<id>@top`, `list:<id>@after:<row>` or `zone:<id>`.
    private static func moveTarget(_ value: String) throws -> (BoardAPI.Target, MovePlace) {
        let problem = DragboardError.badRequest("to names a destination as list:<id> (with @top or @after:<row>) or zone:<id>")
        let (target, place) = value.firstRange(of: "@").map { (String(value[..<$0.lowerBound]), String(value[$0.upperBound...])) } ?? (value, "")
        let parts = target.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, WireGrammar.idProblem(parts[1]) == nil else { throw problem }
        switch (parts[0], place) {
        case ("zone", ""): return (BoardAPI.Target(.zone(parts[1])), .bottom)
        case ("list", ""): return (BoardAPI.Target(.list(parts[1])), .bottom)
        case ("list", "top"): return (BoardAPI.Target(.list(parts[1])), .top)
        case ("list", let after) where after.hasPrefix("after:") && WireGrammar.idProblem(String(after.dropFirst(6))) == nil:
            return (BoardAPI.Target(.list(parts[1])), .after(String(after.dropFirst(6))))
        default: throw problem
        }
    }
}
