import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

extension BoardService {
    /// The boards' routes on `router`: the index at `/`, each board at `/boards/<id>`, and the
    /// drag-and-drop protocol (whose requests name their board; the default board when not).
    /// Every route but sign-in's is guarded: with accounts, only a signed-in person gets through,
    /// and on a route that names a board, only its members, with the role the route needs.
    public func addRoutes(to router: inout Router) {
        var guarded = Router()
        addGuardedRoutes(to: &guarded)
        guarded.guardRoutes { [gate] request, route in
            do {
                return try gate.admit(request, route: route)
            } catch {
                var refusal = DragboardError.from(error) as? HTTPError ?? HTTPError(.internalServerError, code: "internal_error", message: "something went wrong")
                // A browser that navigated here gets a page that says what happened.
                if refusal.status != .seeOther, request.headers["Accept"]?.contains("text/html") == true { refusal.page = Self.errorPage(refusal) }
                throw refusal
            }
        }
        router.merge(guarded)
        addSignInRoutes(to: &router)
    }

    private func addGuardedRoutes(to router: inout Router) {
        // Page and whole-board reads grow with the board: the bulk lane keeps them from delaying drops.
        addBoardRoutes(to: &router)
        addTransferRoutes(to: &router)
        addUndoRoutes(to: &router)
        addMemberRoutes(to: &router)
        addActivityRoutes(to: &router)
        addSignOutRoute(to: &router)
        router.get("/api/board", lane: .bulk) { [self] request in
            try Self.mapped { .jsonBody(try boardBody(csrf: Visitor.of(request).browserToken)) }
        }
        router.get("/events") { [self] request in
            try Self.mapped { try events(board: BoardStore.defaultBoardID, visitor: Visitor.of(request)) }
        }
        router.post("/api/sessions", bodyLimit: 32 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try begin(try request.decode(BoardAPI.BeginRequest.self), owner: owner, address: request.remoteAddress,
                                                   visitor: Visitor.of(request)),
                             status: .created)
            }
        }
        router.post("/api/sessions/external", bodyLimit: 8 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try beginExternal(try request.decode(BoardAPI.ExternalRequest.self), owner: owner, address: request.remoteAddress,
                                                           visitor: Visitor.of(request)),
                             status: .created)
            }
        }
        router.post("/api/sessions/:token/join", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                let body = request.body.isEmpty ? BoardAPI.JoinRequest(board: nil) : try request.decode(BoardAPI.JoinRequest.self)
                return .jsonWritten(try join(request.pathParameters["token"] ?? "", board: body.board, owner: owner, visitor: Visitor.of(request)))
            }
        }
        // The bulk lane: storing an upload ends in an fsync, which must not hold a thread drops need.
        router.post("/api/sessions/:token/files", bodyLimit: Self.maximumImageSize, lane: .bulk, streamingBody: { [self] request in
            do {
                let owner = try RequestGuard.checkWrite(request)
                return try uploadSink(request.pathParameters["token"] ?? "", request: request, owner: owner)
            } catch {
                throw DragboardError.from(error)
            }
        })
        router.get("/images/:id") { [self] request in
            try Self.mapped { try image(request.pathParameters["id"] ?? "", visitor: Visitor.of(request)) }
        }
        router.post("/api/sessions/:token/target", bodyLimit: 4 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try target(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.TargetRequest.self), owner: owner,
                                                   visitor: Visitor.of(request)))
            }
        }
        router.post("/api/sessions/:token/drop", bodyLimit: 256 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                let body = try drop(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.DropRequest.self), owner: owner,
                                    visitor: Visitor.of(request))
                return Response(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(Array(body.utf8)))
            }
        }
        router.post("/api/sessions/:token/end", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try end(request.pathParameters["token"] ?? "", owner: owner, visitor: Visitor.of(request)))
            }
        }
    }

    /// A stored image, by id only: never a path from the request; to a signed-in person, only
    /// when it is on a board they may open.
    func image(_ id: String, visitor: Visitor) throws -> Response {
        guard WireGrammar.idProblem(id) == nil, let record = try store.read({ try $0.image(id) }) else { throw DragboardError.notFound("unknown image") }
        if visitor.account != nil, try !store.boards(showingImage: id).contains(where: { (try? access(visitor, board: $0)) != nil }) {
            throw DragboardError.notFound("unknown image")
        }
        let bytes = try Data(contentsOf: imagesDirectory.appendingPathComponent(record.id))
        return Response(headers: ["Content-Type": record.mimeType, "Cache-Control": "private, max-age=31536000, immutable"], body: .bytes(Array(bytes)))
    }

    /// Runs a handler, turning the app's and the lower layers' errors into HTTP errors.
    static func mapped(_ body: () throws -> Response) throws -> Response {
        do { return try body() } catch { throw DragboardError.from(error) }
    }
}
