/// Maps method + path patterns to handlers.
///
/// ```swift
/// var router = Router()
/// router.get("/lists/:id") { request in
///     .json(try store.list(id: request.pathParameters["id"]!))
/// }
/// router.post("/lists", bodyLimit: 16 * 1024) { request in
///     let input = try request.decode(NewList.self)
///     return .json(try store.create(input), status: .created)
/// }
/// router.mount(try StaticFiles(directory: "Public"), at: "/static")
/// ```
/// Patterns are built from literal segments, `:name` parameters and a trailing `*` wildcard. When several
/// routes match, literals beat parameters, which beat the wildcard. A path that matches no route answers
/// 404; a path that matches only with other methods answers 405 with an `Allow` header.
public struct Router: Sendable {
    /// A route handler. Thrown ``HTTPError``s become their response; other errors become a 500 JSON error.
    public typealias Handler = @Sendable (Request) throws -> Response
    /// Creates the ``RequestBodySink`` for a streaming upload from the request's headers.
    public typealias SinkFactory = @Sendable (Request) throws -> any RequestBodySink

    /// Where a route's handler runs.
    ///
    /// libmicrohttpd has a few threads for all connections; a slow handler on them delays every other
    /// request. Mark slow reads (big page renders, whole-board JSON) `.bulk`: they then run on the server's
    /// small bounded bulk pool (``HTTPServer/Configuration/bulkWorkers``) while the connection is suspended,
    /// so quick interactive requests keep their latency; a full bulk queue answers 503 with `Retry-After`.
    public enum Lane: Sendable {
        /// Runs on libmicrohttpd's thread as soon as the request is complete (the default; for quick work).
        case interactive
        /// Runs on the bulk pool.
        case bulk
    }

    struct Route: Sendable {
        enum Action: Sendable {
            case buffered(Handler)
            case streaming(SinkFactory)
        }
        let method: HTTPMethod
        let pattern: RoutePattern
        let bodyLimit: Int
        var action: Action
        var lane: Lane = .interactive
    }

    struct Mount: Sendable {
        let prefix: String
        let files: StaticFiles
        /// `prefix + "/"`, made once rather than per request.
        let directoryPrefix: String

        init(prefix: String, files: StaticFiles) {
            self.prefix = prefix
            self.files = files
            directoryPrefix = prefix + "/"
        }
    }

    var routes: [Route] = []
    var mounts: [Mount] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a route.
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - pattern: The path pattern, e.g. `/lists/:id`.
    ///   - bodyLimit: The largest request body accepted, in bytes; larger bodies get 413.
    ///   - lane: Where the handler runs; `.bulk` for slow reads (see ``Lane``).
    ///   - handler: The handler.
    public mutating func on(
        _ method: HTTPMethod,
        _ pattern: String,
        bodyLimit: Int = 64 * 1024,
        lane: Lane = .interactive,
        handler: @escaping Handler
    ) {
        routes.append(
            Route(method: method, pattern: RoutePattern(pattern), bodyLimit: bodyLimit, action: .buffered(handler), lane: lane)
        )
    }

    /// Adds a `GET` route; it also answers `HEAD` with the same headers and no body.
    /// - Parameter lane: `.bulk` for slow reads such as big page renders (see ``Lane``).
    public mutating func get(_ pattern: String, lane: Lane = .interactive, handler: @escaping Handler) {
        on(.get, pattern, lane: lane, handler: handler)
    }

    /// Adds a `POST` route.
    public mutating func post(_ pattern: String, bodyLimit: Int = 64 * 1024, handler: @escaping Handler) {
        on(.post, pattern, bodyLimit: bodyLimit, handler: handler)
    }

    /// Adds a `POST` route whose handler runs in `lane` (`.bulk` for slow work on a large body, such as
    /// decoding an imported file), with the body buffered up to `bodyLimit`.
    public mutating func post(_ pattern: String, bodyLimit: Int, lane: Lane, handler: @escaping Handler) {
        on(.post, pattern, bodyLimit: bodyLimit, lane: lane, handler: handler)
    }

    /// Adds a `PUT` route.
    public mutating func put(_ pattern: String, bodyLimit: Int = 64 * 1024, handler: @escaping Handler) {
        on(.put, pattern, bodyLimit: bodyLimit, handler: handler)
    }

    /// Adds a `PATCH` route.
    public mutating func patch(_ pattern: String, bodyLimit: Int = 64 * 1024, handler: @escaping Handler) {
        on(.patch, pattern, bodyLimit: bodyLimit, handler: handler)
    }

    /// Adds a `DELETE` route.
    public mutating func delete(_ pattern: String, bodyLimit: Int = 64 * 1024, handler: @escaping Handler) {
        on(.delete, pattern, bodyLimit: bodyLimit, handler: handler)
    }

    /// Streams the request body to a sink instead of buffering it (large uploads; peak memory independent of body size).
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - bodyLimit: The largest body accepted; a larger declared `Content-Length` gets 413 before any byte is
    ///     read, and a chunked body that grows past it aborts the sink and gets 413.
    ///   - lane: Where the sink's ``RequestBodySink/finish()`` runs; `.bulk` when finishing is slow (syncing a
    ///     file to disk), so it cannot hold one of libmicrohttpd's threads. Body bytes are always written on them.
    ///   - streamingBody: Called once the headers arrived (the request has an empty `body`); may throw an
    ///     ``HTTPError`` to refuse the upload before it starts.
    public mutating func post(
        _ pattern: String,
        bodyLimit: Int,
        lane: Lane = .interactive,
        streamingBody: @escaping @Sendable (Request) throws -> any RequestBodySink
    ) {
        routes.append(
            Route(method: .post, pattern: RoutePattern(pattern), bodyLimit: bodyLimit, action: .streaming(streamingBody), lane: lane)
        )
    }

    /// Serves `files` for `GET`/`HEAD` requests under `prefix`, e.g. `/static/app.js`.
    public mutating func mount(_ files: StaticFiles, at prefix: String) {
        var prefix = prefix.hasPrefix("/") ? prefix : "/" + prefix
        while prefix.count > 1, prefix.hasSuffix("/") { prefix.removeLast() }
        mounts.append(Mount(prefix: prefix == "/" ? "" : prefix, files: files))
    }
}
