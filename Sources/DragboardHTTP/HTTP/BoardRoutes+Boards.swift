import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

extension BoardService {
    /// The board index, each board's page, its reads and live events, and the board forms.
    func addBoardRoutes(to router: inout Router) {
        addEditRoutes(to: &router)
        addMoveRoutes(to: &router)
        addRowRoutes(to: &router)
        addCardRoutes(to: &router)
        addPlainRoutes(to: &router)
        router.get("/", lane: .bulk) { [self] request in
            Self.page(request) { _ in try index(visitor: Visitor.of(request)) }
        }
        router.get("/boards/:board", lane: .bulk) { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request)
                let wider = try Self.widerWindow(request)
                return Self.page(request, bytes: { _ in try pageBody(board: board, visitor: Visitor.of(request), wider: wider, done: request.query["done"]) })
            }
        }
        router.get("/boards/:board/api/board", lane: .bulk) { [self] request in
            try Self.mapped { .jsonBody(try boardBody(try Self.boardID(request), csrf: Visitor.of(request).browserToken)) }
        }
        router.get("/boards/:board/events") { [self] request in
            try Self.mapped { try events(board: try Self.boardID(request), visitor: Visitor.of(request)) }
        }
        router.post("/boards", bodyLimit: 8 * 1024) { [self] request in
            try Self.form(request) { fields, author in
                let color = try fields["color"].map(PaletteColor.named) ?? .boardDefault
                let id = try createBoard(title: fields["title"] ?? "", color: color, op: Self.op(fields), author: author, creator: Visitor.of(request).account)
                return EditResponse(version: 1, changes: [], message: "Created the board.", location: "/boards/\(id)")
            }
        }
    }

    /// A board's live events: a `hello` with its version, then every change committed to it.
    func events(board: String, visitor: Visitor) throws -> Response {
        if let account = visitor.account, live.streamCount(account: account.id) >= limits.eventStreamsPerUser {
            throw DragboardError.tooMany("your account has \(limits.eventStreamsPerUser) live-update streams open, the limit; close a tab and this one reconnects within a minute",
                                         retryAfter: 60)
        }
        let version = try store.version(board: board)
        let viewer = LiveHub.Viewer(board: board, account: visitor.account?.id, name: visitor.account?.name, signIn: visitor.signIn?.digest)
        return Response(headers: ["Cache-Control": "no-store"], body: .eventStream { [live] stream in
            live.subscribe(stream, viewer: viewer, version: version)
        })
    }

    /// An HTML page for the viewer's CSRF token (set as a cookie when new).
    static func page(_ request: Request, _ render: (String) throws -> String) -> Response {
        page(request, bytes: { Array(try render($0).utf8) })
    }

    /// ``page(_:_:)`` for a page rendered as bytes.
    static func page(_ request: Request, bytes render: (String) throws -> [UInt8]) -> Response {
        let visitor = Visitor.of(request)
        let (token, isNew) = (visitor.browserToken, visitor.isNewBrowserToken)
        var response: Response
        do {
            response = Response(headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(try render(token)))
        } catch {
            let failure = DragboardError.from(error)
            let http = failure as? HTTPError ?? HTTPError(.internalServerError, code: "internal_error", message: "something went wrong")
            response = Response.html(errorPage(http), status: http.status)
        }
        response.headers["Cache-Control"] = "no-store"
        if isNew { response.headers["Set-Cookie"] = RequestGuard.cookie(token, secure: request.isHTTPS) }
        return response
    }

    /// Runs a form post: checks the token from the form, then runs `body` with the fields and the
    /// undo history the edit belongs to (the browser's). A plain form is sent back (303) to the
    /// answer's location; a fetch that accepts JSON gets the answer itself. A failure answers its
    /// 4xx as a short page that says what to fix (JSON for fetch).
    static func form(_ request: Request, _ body: (_ fields: [String: String], _ author: ChangeAuthor) throws -> EditResponse) throws -> Response {
        do {
            let fields = try request.formFields()
            _ = try RequestGuard.checkFormWrite(request, fields: fields)
            let answer = try body(fields, Visitor.of(request).author)
            if request.headers["Accept"]?.contains("application/json") == true { return .jsonWritten(answer) }
            // The page it returns to says what this did (see ``notice(done:board:csrf:mayEdit:)``).
            // (Only a page of the board the form was on: a new board's page is news enough.)
            guard let op = fields["op"], WireGrammar.idProblem(op) == nil, answer.location.hasPrefix("/boards/"),
                  request.path.hasPrefix(answer.location.split(separator: "?")[0]) else {
                return .redirect(to: answer.location)
            }
            return .redirect(to: answer.location + (answer.location.contains("?") ? "&" : "?") + "done=" + op)
        } catch {
            let failure = DragboardError.from(error)
            guard let http = failure as? HTTPError else { throw failure }
            if request.headers["Accept"]?.contains("application/json") == true { return http.response }
            return .html(errorPage(http, back: Self.referringPage(request)), status: http.status)
        }
    }

    /// A form's operation id (from its hidden `op` field), or a fresh one when it sent none.
    static func op(_ fields: [String: String]) throws -> String {
        guard let op = fields["op"], !op.isEmpty else { return newID() }
        guard (8...64).contains(op.utf8.count), WireGrammar.idProblem(op) == nil else {
            throw DragboardError.badRequest("op is 8 to 64 letters, digits, '-' or '_'")
        }
        return op
    }

    /// The `:board` path parameter, checked against the id grammar (a bad id is no board: 404).
    static func boardID(_ request: Request) throws -> String {
        try id(request.pathParameters["board"], "board")
    }

    /// An id from a path or a form field: one that breaks the grammar names nothing (404).
    static func id(_ value: String?, _ what: String) throws -> String {
        guard let value, WireGrammar.idProblem(value) == nil else { throw DragboardError.notFound("unknown \(what)") }
        return value
    }

    /// The server's words as a sentence: a first lower-case word capitalised ("photo.png was not
    /// added" names a file, which keeps its case).
    static func sentence(_ words: String) -> String {
        guard let first = words.firstIndex(where: { !$0.isLetter }), first > words.startIndex,
              " ,;".contains(words[first]), words[..<first].allSatisfy(\.isLowercase) else { return words }
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// A minimal page for an error a person sees after a plain form post or a bad address.
    /// The page of this site a form was sent from (its `Referer`, path and query only: a link
    /// built from it never leaves the site), for an error page's way back.
    static func referringPage(_ request: Request) -> String? {
        guard let referer = request.headers["Referer"], let parts = URLComponents(string: referer),
              parts.path.hasPrefix("/"), !parts.path.hasPrefix("//") else { return nil }
        return parts.path + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// `back`: where the person came from (the form's page), offered first.
    static func errorPage(_ error: HTTPError, back: String? = nil) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(error.status.code) · Dragboard</title>
        <link rel="stylesheet" href="/static/app.css"></head>
        <body><main class="error-page"><h1>\(error.status.code) \(HTMLEscaping.escape(error.status.reasonPhrase))</h1>
        <p class="error" role="alert" data-error="\(HTMLEscaping.escape(error.code))">\(HTMLEscaping.escape(Self.sentence(error.message)))</p>
        <p>\(back.map { #"<a href="\#(HTMLEscaping.escape($0))" data-action="back">Go back and try again</a> · "# } ?? "")<a href="/">All boards</a></p></main></body></html>
        """
    }
}

extension Response {
    /// A JSON response from bytes already encoded.
    static func jsonBody(_ bytes: [UInt8]) -> Response {
        Response(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(bytes))
    }
}
