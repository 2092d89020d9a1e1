import Dragboard
import DragboardHTTP
import DragboardStore
import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting

/// A kit's board served in process for a test, as HummingbirdTesting serves an application: on
/// a temporary SQLite file (or a database you name), with the same routes, rendering and live
/// events as the real server.
///
/// Requests go through one of two transports, chosen when the app is made:
/// - ``Transport-swift.enum/router``: straight to the router, no socket (fast; no live stream);
/// - ``Transport-swift.enum/live``: to libmicrohttpd on a free loopback port, byte for byte.
///
/// The test is one browser: its CSRF token is set as the cookie of every request and echoed by
/// ``post(_:json:)`` and ``postForm(_:_:)``, so writes pass the request guard as a page's would.
public final class DragboardTestApp: Sendable {
    /// How requests reach the app.
    public enum Transport: Sendable {
        /// The router's `respond(to:)` in this process.
        case router
        /// A real server on `127.0.0.1` and a free port, through sockets.
        case live
    }

    /// The board service under test: its store, renderer, sessions and live hub.
    public let service: BoardService
    /// The routes the app serves (the board's, and `/static` when a public folder was given).
    public let router: Router
    public let transport: Transport
    /// A folder of the test's own (the SQLite file, stored images); removed by ``stop()``.
    public let directory: URL
    /// This test browser's CSRF token (32 hex digits), also its identity for undo and sessions.
    public let csrf = "0123456789abcdef0123456789abcdef"
    private let server: HTTPServer?

    public var store: BoardStore { service.store }

    /// The `Cookie` header of this browser: its CSRF token, as the server set it.
    public var cookie: String { "\(RequestGuard.cookieName)=\(csrf)" }

    /// The port the live server listens on (nil with the router transport).
    public var port: Int? { server?.port }

    /// Opens the kit's board on a fresh database, seeds it, and (for ``Transport-swift.enum/live``)
    /// starts the server.
    ///
    /// - Parameters:
    ///   - templatesDirectory: The app's `Templates/` folder.
    ///   - publicDirectory: The app's `Public/` folder, served at `/static` when given.
    ///   - database: Where the data lives; by default a SQLite file in ``directory``.
    ///   - openStore: How `database` opens (SQLite by default; `BoardStore(database:)` of
    ///     `DragboardPostgres` for a PostgreSQL URL).
    public init(kit: BoardKit, templatesDirectory: String, publicDirectory: String? = nil, transport: Transport = .router,
                limits: BoardService.Limits = .init(), signIn: SignInPolicy = .init(), database: String? = nil,
                openStore: (String) throws -> BoardStore = { try BoardStore(path: $0) }) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.transport = transport
        // Pages name the static files as the server would serve them: under their version, when served.
        let staticFiles = try publicDirectory.map { try StaticFiles(directory: $0) }
        service = try await BoardService(kit: kit, databasePath: database ?? directory.appendingPathComponent("board.sqlite").path, openStore: openStore,
                                         imagesDirectory: directory.appendingPathComponent("images").path, templatesDirectory: templatesDirectory,
                                         staticFiles: staticFiles.map { "/static/" + $0.version } ?? "/static",
                                         limits: limits, signIn: signIn, logger: Logger(label: "dragboard.test"))
        var router = Router()
        if let staticFiles { router.mount(staticFiles, at: "/static") }
        service.addRoutes(to: &router)
        self.router = router
        guard transport == .live else {
            server = nil
            return
        }
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.host = "127.0.0.1"
        let server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "dragboard.test.http"))
        try server.start()
        self.server = server
    }

    /// Stops the server (ending live streams) and removes ``directory``.
    public func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends a request as this browser (its CSRF cookie, and `Host` of the live server) and
    /// returns the whole response.
    public func execute(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: [UInt8] = []) throws -> TestResponse {
        var headers = headers
        if headers["Cookie"] == nil { headers["Cookie"] = cookie }
        switch transport {
        case .router:
            let (route, query) = Self.split(path)
            let response = router.respond(to: Request(method: method, path: route, query: query, headers: headers, body: body))
            guard case .bytes(let bytes) = response.body else { throw TestFailure("\(path) streams: use the live transport") }
            return TestResponse(status: response.status.code, headers: response.headers.map { (name: $0.name, value: $0.value) }, body: bytes)
        case .live:
            let connection = try TestConnection(port: port ?? 0)
            defer { connection.close() }
            try connection.send(Self.head(method, path, headers: headers, port: port ?? 0, bodyCount: body.count) + body)
            return try connection.readResponse(head: method == .head)
        }
    }

    public func get(_ path: String, headers: HTTPHeaders = [:]) throws -> TestResponse {
        try execute(.get, path, headers: headers)
    }

    /// Posts `object` as JSON with this browser's CSRF token, as the page's scripts do.
    public func post(_ path: String, json object: Any) throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try execute(.post, path, headers: ["Content-Type": "application/json", RequestGuard.headerName: csrf], body: Array(body))
    }

    /// Posts a plain HTML form, as a browser without JavaScript does (the token in its `csrf` field).
    public func postForm(_ path: String, _ fields: [String: String]) throws -> TestResponse {
        try execute(.post, path, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: formBody(fields))
    }

    /// `fields` as a browser encodes a form (`application/x-www-form-urlencoded`), with this
    /// browser's token in `csrf` unless `fields` names one.
    public func formBody(_ fields: [String: String]) -> [UInt8] {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = csrf }
        return Array(fields.sorted { $0.key < $1.key }.map { "\(Self.formEncoded($0.key))=\(Self.formEncoded($0.value))" }.joined(separator: "&").utf8)
    }

    /// Hands `request` to the router in this process, whatever the transport (for requests a
    /// socket cannot carry as built, or to read a streaming response's head). The browser's
    /// cookie is added unless the request has one.
    public func respond(to request: Request) -> Response {
        var request = request
        if request.headers["Cookie"] == nil {
            request.headers["Cookie"] = cookie
            request.cookies[RequestGuard.cookieName] = csrf
        }
        return router.respond(to: request)
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-_.*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }

    private static func split(_ path: String) -> (String, [String: String]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, [:]) }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            query[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return (String(path[..<mark]), query)
    }

    private static func head(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, port: Int, bodyCount: Int) -> [UInt8] {
        var head = "\(method.rawValue) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if bodyCount > 0 || method == .post { head += "Content-Length: \(bodyCount)\r\n" }
        return Array((head + "\r\n").utf8)
    }
}
