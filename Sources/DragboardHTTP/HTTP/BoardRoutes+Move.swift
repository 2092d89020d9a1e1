import Dragboard
import MicroHTTP

extension BoardService {
    /// Moving a row without JavaScript: its move page (`GET /boards/<id>/move?item=<id>`, what a
    /// row's move-to button opens without scripts) holds `form[data-form="move"]`, posted to
    /// `POST /boards/<id>/move` and decided by the same engine as a drag (303 back to the board).
    /// One small page per row asked for keeps the board page free of per-row destination lists.
    func addMoveRoutes(to router: inout Router) {
        router.get("/boards/:board/move") { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request)
                let item = try Self.id(request.query["item"], "item")
                return Self.page(request) { csrf in
                    let (title, destinations, nowhere) = try moveDestinations(board: board, item: item, owner: csrf, visitor: Visitor.of(request))
                    return renderer.movePage(board: board, item: item, title: title, destinations: destinations, nowhere: nowhere, csrf: csrf, op: Self.newID())
                }
            }
        }
        router.post("/boards/:board/move", bodyLimit: 8 * 1024) { [self] request in
            try Self.form(request) { fields, _ in
                let owner = try RequestGuard.checkFormWrite(request, fields: fields)
                return try moveItem(board: try Self.boardID(request), item: Self.id(fields["item"], "item"), to: fields["to"] ?? "",
                                    op: Self.op(fields), owner: owner, visitor: Visitor.of(request))
            }
        }
    }
}
