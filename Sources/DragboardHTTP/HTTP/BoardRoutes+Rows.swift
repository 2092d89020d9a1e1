import Dragboard
import DragboardStore
import MicroHTTP

extension BoardService {
    /// `GET /boards/:board/api/lists/:list/rows?after=<row id>&count=<n>`: the rows after `after`
    /// (from the first without it), `count` of them (the kit's window without it).
    func addRowRoutes(to router: inout Router) {
        router.get("/boards/:board/api/lists/:list/rows", lane: .bulk) { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request)
                let list = try Self.id(request.pathParameters["list"], "list")
                let after = try request.query["after"].map { try Self.id($0, "row") }
                let count = try Self.count(request.query["count"], default: kit.rowWindow, name: "count")
                return .jsonBody(Array(try Self.json(try rows(board: board, list: list, after: after, count: count)).utf8))
            }
        }
    }

    /// A count from the query: digits only, or a 400 that says so.
    static func count(_ value: String?, default fallback: Int, name: String) throws -> Int {
        guard let value else { return fallback }
        guard !value.isEmpty, value.count <= 9, value.allSatisfy(\.isASCII), let number = Int(value), number >= 0 else {
            throw DragboardError.badRequest("\(name) must be a whole number")
        }
        return number
    }

    /// The wider window of one list a page may be asked for (`?list=<id>&rows=<n>`: the "Show more"
    /// link of a page without JavaScript).
    static func widerWindow(_ request: Request) throws -> RowWindow? {
        guard let list = request.query["list"] else { return nil }
        guard WireGrammar.idProblem(list) == nil else { throw DragboardError.badRequest("list is not an id") }
        let rows = try count(request.query["rows"], default: 0, name: "rows")
        guard (1...maximumPageWindow).contains(rows) else { throw DragboardError.badRequest("rows must be between 1 and \(maximumPageWindow)") }
        return RowWindow(list: list, count: rows)
    }
}
