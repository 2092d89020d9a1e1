@testable import DragboardStore
import Foundation
import Logging
import MicroHTTP
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// A board service on a fresh database with the repository's templates, driven in process
/// through its router — the same handlers the server runs.
struct TestBoard {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let service: BoardService
    let router: Router
    let directory: URL
    let csrf = "0123456789abcdef0123456789abcdef"

    init(limits: BoardService.Limits = .init(), rowWindow: Int = BoardKit.defaultRowWindow) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try BoardStore(path: directory.appendingPathComponent("board.sqlite").path)
        if let seed = Showcase.kit.seed { try store.seedIfEmpty(seed) }
        var kit = Showcase.kit
        kit.rowWindow = rowWindow
        let renderer = try await BoardRenderer(templatesDirectory: Self.root.appendingPathComponent("Templates").path, kit: kit)
        service = try BoardService(store: store, renderer: renderer, imagesDirectory: directory.appendingPathComponent("images"),
                                   limits: limits, logger: Logger(label: "test"))
        var router = Router()
        service.addRoutes(to: &router)
        self.router = router
    }

    var store: BoardStore { service.store }

    func request(_ method: HTTPMethod, _ path: String, json: String? = nil, csrf: String? = nil, cookie: String? = nil, headers extra: HTTPHeaders = [:]) -> Response {
        var headers = extra
        headers["Cookie"] = "\(RequestGuard.cookieName)=\(cookie ?? self.csrf)"
        if let token = csrf ?? (method == .post ? self.csrf : nil) { headers[RequestGuard.headerName] = token }
        if json != nil { headers["Content-Type"] = "application/json" }
        return router.respond(to: Request(method: method, path: path, headers: headers, body: Array((json ?? "").utf8)))
    }

    func post(_ path: String, _ object: Any, csrf: String? = nil, cookie: String? = nil) throws -> (status: Int, json: [String: Any]) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let response = request(.post, path, json: body, csrf: csrf, cookie: cookie)
        return (response.status.code, Self.json(response))
    }

    /// Posts a plain HTML form (what a browser without JavaScript sends); the CSRF token goes in
    /// the `csrf` field unless `fields` names one.
    func form(_ path: String, _ fields: [String: String]) -> Response {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = csrf }
        let body = fields.sorted { $0.key < $1.key }.map { key, value in
            "\(Self.formEncoded(key))=\(Self.formEncoded(value))"
        }.joined(separator: "&")
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(csrf)", "Content-Type": "application/x-www-form-urlencoded"]
        return router.respond(to: Request(method: .post, path: path, headers: headers, body: Array(body.utf8)))
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-_.*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }

    static func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func json(_ response: Response) -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    func ids(_ list: String) throws -> [String] { try store.rows(in: list).map(\.id) }
    func titles(_ list: String) throws -> [String] { try store.rows(in: list).map(\.title) }

    static func token() -> String { DragSessions.randomToken() }

    /// Begins a session for `items` of `list`; returns its token.
    func begin(_ list: String, _ items: [String]) throws -> String {
        let token = Self.token()
        let (status, json) = try post("/api/sessions", ["token": token, "list": list, "items": items])
        guard status == 201, json["token"] as? String == token else { throw TestFailure("begin failed: \(status) \(json)") }
        return token
    }

    func drop(_ token: String, list: String, row: Int?, fraction: Double = 0.3, item: String? = nil, version: Int? = nil, op: String = UUID().uuidString) throws -> (status: Int, json: [String: Any]) {
        var location: [String: Any] = [:]
        if let row { location = ["row": row, "fraction": fraction] }
        if let item { location["item"] = item }
        return try post("/api/sessions/\(token)/drop", ["op": op, "version": try version ?? store.version(), "target": ["list": list], "location": row == nil ? NSNull() as Any : location as Any])
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
