import MicroHTTP

extension BoardService {
    /// The board's routes on `router`.
    public func addRoutes(to router: inout Router) {
        router.get("/") { [self] request in
            let (token, isNew) = RequestGuard.csrfToken(of: request)
            var response = Response.html(try page(csrf: token))
            response.headers["Cache-Control"] = "no-store"
            if isNew { response.headers["Set-Cookie"] = RequestGuard.cookie(token) }
            return response
        }
        router.get("/api/board") { [self] _ in
            try Self.mapped { .json(try board()) }
        }
        router.get("/events") { [self] _ in
            let version = try store.version()
            return Response(headers: ["Cache-Control": "no-store"], body: .eventStream { [live] stream in
                live.subscribe(stream, version: version)
            })
        }
        router.post("/api/sessions", bodyLimit: 32 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .json(try begin(try request.decode(BoardAPI.BeginRequest.self), owner: owner), status: .created)
            }
        }
        router.post("/api/sessions/:token/target", bodyLimit: 4 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .json(try target(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.TargetRequest.self), owner: owner))
            }
        }
        router.post("/api/sessions/:token/drop", bodyLimit: 16 * 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                let body = try drop(request.pathParameters["token"] ?? "", try request.decode(BoardAPI.DropRequest.self), owner: owner)
                return Response(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(Array(body.utf8)))
            }
        }
        router.post("/api/sessions/:token/end", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                let owner = try RequestGuard.checkWrite(request)
                return .json(try end(request.pathParameters["token"] ?? "", owner: owner))
            }
        }
    }

    /// Runs a handler, turning the app's and the lower layers' errors into HTTP errors.
    static func mapped(_ body: () throws -> Response) throws -> Response {
        do { return try body() } catch { throw DragboardError.from(error) }
    }
}
