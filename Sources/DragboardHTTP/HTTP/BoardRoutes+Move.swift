import Dragboard
import DragboardStore
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
                let toBoard = try request.query["to-board"].map { try Self.id($0, "board") } ?? board
                return Self.page(request) { csrf in
                    let visitor = Visitor.of(request)
                    let boards = try visitor.account.map { try store.boards(for: $0) } ?? store.boards()
                    guard boards.contains(where: { $0.id == toBoard }) else { throw DragboardError.notFound("unknown board") }
                    let (title, targets, nowhere) = try moveDestinations(board: board, item: item, owner: csrf, visitor: visitor, toBoard: toBoard)
                    return renderer.movePage(MovePage(board: board, item: item, title: title, boards: boards, toBoard: toBoard, targets: targets, nowhere: nowhere),
                                             csrf: csrf, op: Self.newID())
                }
            }
        }
        router.post("/boards/:board/move", bodyLimit: 8 * 1024) { [self] request in
            try Self.form(request) { fields, _ in
                let owner = try RequestGuard.checkFormWrite(request, fields: fields)
                return try moveItem(board: try Self.boardID(request), item: Self.id(fields["item"], "item"), to: fields["to"] ?? "",
                                    toBoard: try fields["board"].map { try Self.id($0, "board") }, op: Self.op(fields), owner: owner, visitor: Visitor.of(request))
            }
        }
    }
}
