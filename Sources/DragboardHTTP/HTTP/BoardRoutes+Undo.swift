import Dragboard
import MicroHTTP

extension BoardService {
    /// What an undo or redo request says: its operation id, and the board whose history it
    /// takes from (none: the browser's newest change anywhere).
    struct UndoRequest: Decodable {
        var op: String
        var board: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            op = try container.decodeID(forKey: .op)
            board = try container.decodeIDIfPresent(forKey: .board)
        }

        enum CodingKeys: String, CodingKey { case op, board }
    }

    /// `POST /api/undo`, `POST /api/redo` (JSON `{op, board?}`) and `GET /api/undo?board=`: the
    /// requesting browser's own history (its cookie identity), never anyone else's.
    func addUndoRoutes(to router: inout Router) {
        for redo in [false, true] {
            router.post(redo ? "/api/redo" : "/api/undo", bodyLimit: 1024) { [self] request in
                try Self.mapped {
                    let browser = try RequestGuard.checkWrite(request)
                    let body = try request.decode(UndoRequest.self)
                    return .jsonWritten(try undo(browser: browser, board: body.board, op: body.op, redo: redo, visitor: Visitor.of(request)))
                }
            }
        }
        router.get("/api/undo") { [self] request in
            try Self.mapped {
                let board = try request.query["board"].map { try Self.id($0, "board") }
                let visitor = Visitor.of(request)
                guard !visitor.isNewBrowserToken else { return .jsonWritten(UndoState()) }
                return .jsonWritten(try undoState(browser: visitor.historyIdentity, board: board))
            }
        }
    }
}
