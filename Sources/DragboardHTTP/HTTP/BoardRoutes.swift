import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

extension BoardService {
    /// The boards' routes on `router`: the index at `/`, each board at `/boards/<id>`, and the
    /// drag-and-drop protocol (whose requests name their board; the default board when not).
    public func addRoutes(to router: inout Router) {
        // Page and whole-board reads grow with the board: the bulk lane keeps them from delaying drops.
        addBoardRoutes(to: &router)
        addUndoRoutes(to: &router)
        router.get("/api/board", lane: .bulk) { [self] request in
            try Self.mapped { .jsonBody(try boardBody(csrf: RequestGuard.csrfToken(of: request).token)) }
        }
        router.get("/events") { [self] _ in
            try Self.mapped { try events(board: BoardStore.defaultBoardID) }
        }
        router.post("/api/sessions", bodyLimit: 32 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try begin(try request.decode(BoardAPI.BeginRequest.self), owner: owner, address: request.remoteAddress),
                             status: .created)
            }
        }
        router.post("/api/sessions/external", bodyLimit: 8 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try beginExternal(try request.decode(BoardAPI.ExternalRequest.self), owner: owner, address: request.remoteAddress),
                             status: .created)
            }
        }
        router.post("/api/sessions/:token/join", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                let body = request.body.isEmpty ? BoardAPI.JoinRequest(board: nil) : try request.decode(BoardAPI.JoinRequest.self)
                return .jsonWritten(try join(request.pathParameters["token"] ?? "", board: body.board, owner: owner))
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
            try Self.mapped { try image(request.pathParameters["id"] ?? "") }
        }
        router.post("/api/sessions/:token/target", bodyLimit: 4 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try target(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.TargetRequest.self), owner: owner))
            }
        }
        router.post("/api/sessions/:token/drop", bodyLimit: 256 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                let body = try drop(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.DropRequest.self), owner: owner)
                return Response(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(Array(body.utf8)))
            }
        }
        router.post("/api/sessions/:token/end", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .jsonWritten(try end(request.pathParameters["token"] ?? "", owner: owner))
            }
        }
    }

    /// A stored image, by id only: never a path from the request.
    func image(_ id: String) throws -> Response {
        guard WireGrammar.idProblem(id) == nil, let record = try store.read({ try $0.image(id) }) else { throw DragboardError.notFound("unknown image") }
        let bytes = try Data(contentsOf: imagesDirectory.appendingPathComponent(record.id))
        return Response(headers: ["Content-Type": record.mimeType, "Cache-Control": "public, max-age=31536000, immutable"], body: .bytes(Array(bytes)))
    }

    /// Runs a handler, turning the app's and the lower layers' errors into HTTP errors.
    static func mapped(_ body: () throws -> Response) throws -> Response {
        do { return try body() } catch { throw DragboardError.from(error) }
    }
}
