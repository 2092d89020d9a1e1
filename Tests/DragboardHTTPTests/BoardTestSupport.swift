import DragboardTesting
import MicroHTTPTesting

@testable import DragboardStore
import Foundation
import Logging
import MicroHTTP
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// A kit's board (the showcase's unless a test names another) in the public harness
/// (``DragboardTestApp``), in the shapes these route tests were written in: MicroHTTP responses,
/// `(status, json)` pairs and sessions by token.
struct TestBoard {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let app: DragboardTestApp
    var service: BoardService { app.service }
    var router: Router { app.router }
    var directory: URL { app.directory }
    var csrf: String { app.csrf }
    var store: BoardStore { app.store }

    init(kit: BoardKit = Showcase.kit, transport: DragboardTestApp.Transport = .router, limits: BoardService.Limits = .init(),
         signIn: SignInPolicy = .init(), rowWindow: Int = BoardKit.defaultRowWindow) async throws {
        var kit = kit
        kit.rowWindow = rowWindow
        app = try await DragboardTestApp(kit: kit, templatesDirectory: Self.root.appendingPathComponent("Templates").path,
                                         transport: transport, limits: limits, signIn: signIn)
    }

    func remove() { app.stop() }

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
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(csrf)", "Content-Type": "application/x-www-form-urlencoded"]
        return router.respond(to: Request(method: .post, path: path, headers: headers, body: app.formBody(fields)))
    }

    /// ``form(_:_:)`` with fields in order, a name repeated as checkboxes send it.
    func form(_ path: String, pairs: [(String, String)]) -> Response {
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(csrf)", "Content-Type": "application/x-www-form-urlencoded"]
        let fields = [("csrf", csrf)] + pairs
        let body = fields.map { "\(FormEncoding.escape($0.0))=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
        return router.respond(to: Request(method: .post, path: path, headers: headers, body: Array(body.utf8)))
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

    func get(_ path: String) throws -> String { try app.get(path).text }

    /// Drags `items` of `list` and drops them on `target` over `row` (`nil`: below every row, as
    /// on an empty list); returns the drop's answer.
    func move(_ items: [String], of list: String, to target: String, row: Int?, copy: Bool = false) throws -> (status: Int, json: [String: Any]) {
        let drop = try app.drag(items, from: list).drop(on: target, row: row, copy: copy)
        return (drop.status, drop.json ?? [:])
    }

    /// Drops `text` from another app on `target`.
    func dropText(_ text: String, on target: String) throws -> (status: Int, json: [String: Any]) {
        let token = DragboardTestApp.newToken()
        let begun = try app.post("/api/sessions/external", json: ["token": token, "types": ["text/plain"], "files": [String]()])
        guard begun.status == 201 else { return (begun.status, begun.json ?? [:]) }
        let drop = try app.post("/api/sessions/\(token)/drop", json: ["op": UUID().uuidString, "version": try service.store.version(),
                                                                       "target": ["list": target], "location": NSNull(), "data": [["text/plain", text]]])
        return (drop.status, drop.json ?? [:])
    }

    static func token() -> String { DragboardTestApp.newToken() }

    /// Begins a session for `items` of `list`; returns its token.
    func begin(_ list: String, _ items: [String]) throws -> String {
        try app.drag(items, from: list).token
    }

    func drop(_ token: String, list: String, row: Int?, fraction: Double = 0.3, item: String? = nil, version: Int? = nil, op: String = UUID().uuidString) throws -> (status: Int, json: [String: Any]) {
        let answer = try TestDrag(app: app, token: token).drop(on: list, row: row, fraction: fraction, item: item, version: version, op: op)
        return (answer.status, answer.json ?? [:])
    }
}
