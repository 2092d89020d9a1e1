import Dragboard
import DragboardStore
import MicroHTTP

extension BoardService {
    /// A card's page and the forms of its details (each a plain POST, 303 back to the card,
    /// that fetch may send too), the board's labels and colour, and the board's filter.
    func addCardRoutes(to router: inout Router) {
        router.get("/boards/:board/cards/:item") { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request), item = try Self.id(request.pathParameters["item"], "card")
                return Self.page(request) { csrf in try cardPage(board: board, item: item, visitor: Visitor.of(request), csrf: csrf) }
            }
        }
        // A row's link to its card names no board (a row is rendered alike wherever it shows): this
        // finds it, and the card's page is then let through by the board's members as any page.
        router.get("/cards/:item") { [self] request in
            try Self.mapped {
                let item = try Self.id(request.pathParameters["item"], "card")
                guard let board = try store.board(ofItem: item) else { throw DragboardError.notFound("unknown card; someone may have deleted it") }
                return .redirect(to: "/boards/\(board)/cards/\(item)")
            }
        }
        router.get("/boards/:board/api/search") { [self] request in
            try Self.mapped {
                .jsonBody(Array(try Self.json(SearchAnswer(items: try search(board: try Self.boardID(request), query: request.query["q"] ?? ""))).utf8))
            }
        }
        /// `handle` gets the service, the board, the card, the request, its fields and the author.
        func post(_ path: String, bodyLimit: Int = 8 * 1024,
                  _ handle: @escaping @Sendable (BoardService, String, Request, [String: String], ChangeAuthor) throws -> EditResponse) {
            router.post(path, bodyLimit: bodyLimit) { [self] request in
                try Self.form(request) { fields, author in try handle(self, try Self.boardID(request), request, fields, author) }
            }
        }
        @Sendable func item(_ request: Request) throws -> String { try Self.id(request.pathParameters["item"], "card") }
        @Sendable func check(_ request: Request) throws -> String { try Self.id(request.pathParameters["check"], "checklist item") }
        // A description of 10,000 characters, each up to 4 bytes and each byte `%HH` in the form.
        post("/boards/:board/cards/:item", bodyLimit: 128 * 1024) { service, board, request, fields, author in
            let form = CardEdits.Form(title: fields["title"] ?? "", description: fields["description"] ?? "", due: fields["due"] ?? "",
                                      labels: try request.formValues(named: "label"))
            return try service.saveCard(board: board, item: try item(request), form: form, op: Self.op(fields), author: author)
        }
        post("/boards/:board/cards/:item/checks") { service, board, request, fields, author in
            try service.addCheck(board: board, item: try item(request), title: fields["title"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/cards/:item/checks/:check") { service, board, request, fields, author in
            try service.setCheck(board: board, item: try item(request), check: try check(request), done: fields["done"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/cards/:item/checks/:check/move") { service, board, request, fields, author in
            try service.moveCheck(board: board, item: try item(request), check: try check(request), index: fields["index"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/cards/:item/checks/:check/delete") { service, board, request, fields, author in
            try service.deleteCheck(board: board, item: try item(request), check: try check(request), op: Self.op(fields), author: author)
        }
        post("/boards/:board/labels") { service, board, _, fields, author in
            try service.addLabel(board: board, name: fields["name"] ?? "", color: fields["color"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/labels/:label") { service, board, request, fields, author in
            try service.editLabel(board: board, label: try Self.id(request.pathParameters["label"], "label"), name: fields["name"] ?? "",
                                  color: fields["color"] ?? "", op: Self.op(fields), author: author)
        }
        post("/boards/:board/labels/:label/delete") { service, board, request, fields, author in
            try service.deleteLabel(board: board, label: try Self.id(request.pathParameters["label"], "label"), op: Self.op(fields), author: author)
        }
        post("/boards/:board/color") { service, board, _, fields, author in
            try service.setColor(board: board, color: fields["color"] ?? "", op: Self.op(fields), author: author)
        }
    }

    /// What the filter answers: the ids of the cards it keeps.
    struct SearchAnswer: Encodable {
        var items: [String]
    }
}
