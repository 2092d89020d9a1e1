import Dragboard
import DragboardStore
import MicroHTTP

extension BoardService {
    /// The board's forms: each a plain POST (303 back to the board) that fetch may send too.
    func addEditRoutes(to router: inout Router) {
        /// `handle` gets the service, the board, the request, its fields and the author of the edit.
        /// `ask`: the question a plain form gets first (a deletion's), or nil to go ahead.
        func post(_ path: String, ask: (@Sendable (BoardService, String, Request, [String: String]) throws -> Response?)? = nil,
                  _ handle: @escaping @Sendable (BoardService, String, Request, [String: String], ChangeAuthor) throws -> EditResponse) {
            router.post(path, bodyLimit: 8 * 1024) { [self] request in
                // A question that cannot be put (a bad form, a list gone) is left to the edit, which says why.
                if let ask, let fields = try? request.formFields(), let board = try? Self.boardID(request),
                   let question = try? ask(self, board, request, fields) {
                    return question
                }
                return try Self.form(request) { fields, author in try handle(self, try Self.boardID(request), request, fields, author) }
            }
        }
        post("/boards/:board/rename") { service, board, _, fields, author in
            try service.renameBoard(board: board, title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/delete", ask: { service, board, request, fields in
            let (title, lists) = try service.store.read(board: board) { tx in (try tx.board().title, try tx.lists().count) }
            return Self.confirmation(request, fields: fields, question: "Delete the board “\(title)”?",
                                     consequence: "Its \(lists) list\(lists == 1 ? "" : "s") and every card on them go with it. You can undo it from the index.",
                                     answer: "Delete the board", back: "/boards/\(board)", renderer: service.renderer)
        }) { service, board, _, fields, author in
            try service.deleteBoard(board: board, op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists") { service, board, _, fields, author in
            try service.addList(board: board, title: fields["title"] ?? "", kind: fields["kind"] ?? CardsList.id, op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/rename") { service, board, request, fields, author in
            try service.renameList(board: board, list: Self.id(request.pathParameters["list"], "list"), title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/delete", ask: { service, board, request, fields in
            let list = try Self.id(request.pathParameters["list"], "list")
            let (title, count) = try service.store.read(board: board) { tx in
                (try tx.lists().first { $0.id == list }?.title ?? "", try tx.rowCount(in: list))
            }
            guard count > 0 else { return nil }   // an empty list goes at once, as with a script
            return Self.confirmation(request, fields: fields, question: "Delete the list “\(title)”?",
                                     consequence: "Its \(count) card\(count == 1 ? "" : "s") go\(count == 1 ? "es" : "") with it. You can undo it from the board.",
                                     answer: "Delete the list", back: "/boards/\(board)", renderer: service.renderer)
        }) { service, board, request, fields, author in
            try service.deleteList(board: board, list: Self.id(request.pathParameters["list"], "list"), op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/move") { service, board, request, fields, author in
            // `index` counts from 0 (scripts); `place` from 1 (people, in the list's menu).
            let index = fields["index"] ?? fields["place"].map { Int($0).map { String($0 - 1) } ?? $0 } ?? ""
            return try service.moveList(board: board, list: Self.id(request.pathParameters["list"], "list"), index: index, op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/sort") { service, board, request, fields, author in
            try service.sortList(board: board, list: Self.id(request.pathParameters["list"], "list"), by: fields["by"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/items") { service, board, request, fields, author in
            try service.addItem(board: board, list: Self.id(request.pathParameters["list"], "list"), title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/items/rename") { service, board, _, fields, author in
            try service.renameItem(board: board, item: Self.id(fields["item"], "item"), title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/items/delete") { service, board, _, fields, author in
            try service.deleteItem(board: board, item: Self.id(fields["item"], "item"), op: Self.op(fields), author: author)
        }
        post("/boards/:board/images/delete") { service, board, _, fields, author in
            try service.removeImage(board: board, image: Self.id(fields["image"], "image"), op: Self.op(fields), author: author)
        }
    }
}
