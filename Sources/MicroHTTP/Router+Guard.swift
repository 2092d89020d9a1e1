extension Router {
    /// One route as registered: its method and pattern (`/boards/:board/rename`).
    public struct RouteDescription: Sendable, Hashable {
        public let method: HTTPMethod
        public let pattern: String
    }

    /// Every route registered, in order (static mounts are not routes): what a test walks to
    /// check that each route is guarded.
    public var routeTable: [RouteDescription] {
        routes.map { RouteDescription(method: $0.method, pattern: $0.pattern.description) }
    }

    /// Runs `check` before the handler (or upload sink) of every route registered so far, with
    /// the route's pattern. It returns the request the handler gets (typically with
    /// ``Request/context`` set), or throws (an ``HTTPError``) to refuse it: routes added
    /// afterwards are not guarded, which is how public routes sit beside guarded ones.
    public mutating func guardRoutes(_ check: @escaping @Sendable (Request, RouteDescription) throws -> Request) {
        routes = routes.map { route in
            var guarded = route
            let description = RouteDescription(method: route.method, pattern: route.pattern.description)
            switch route.action {
            case .buffered(let handler):
                guarded.action = .buffered { request in try handler(try check(request, description)) }
            case .streaming(let makeSink):
                guarded.action = .streaming { request in try makeSink(try check(request, description)) }
            }
            return guarded
        }
    }

    /// Adds `other`'s routes and mounts after this router's own.
    public mutating func merge(_ other: Router) {
        routes += other.routes
        mounts += other.mounts
    }
}
