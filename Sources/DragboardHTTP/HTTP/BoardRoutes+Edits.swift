import Dragboard
import MicroHTTP

extension BoardService {
    /// The board's forms: each a plain POST (303 back to the board) that fetch may send too.
    func addEditRoutes(to router: inout Router) {
        /// `handle` gets the service, the board, the request, its fields and the author of the edit.
        func post(_ path: String, _ handle: @escaping @Sendable (BoardService, String, Request, [String: String], ChangeAuthor) throws -> EditResponse) {
            router.post(path, bodyLimit: 8 * 1024) { [self] request in
                try Self.form(request) { fields, author in try handle(self, try Self.boardID(request), request, fields, author) }
            }
        }
        post("/boards/:board/rename") { service, board, _, fields, author in
            try service.renameBoard(board: board, title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/delete") { service, board, _, fields, author in
            try service.deleteBoard(board: board, op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists") { service, board, _, fields, author in
            try service.addList(board: board, title: fields["title"] ?? "", kind: fields["kind"] ?? CardsList.id, op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/rename") { service, board, request, fields, author in
            try service.renameList(board: board, list: Self.id(request.pathParameters["list"], "list"), title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/lists/:list/delete") { service, board, request, fields, author in
            try service.deleteList(board: board, list: Self.id(request.pathParameters["list"], "list"), op: Self.op(fields), author: author)
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
