@testable import DragboardStore
import Foundation
import MicroHTTP
@testable import Dragboard
@testable import DragboardHTTP

/// A board of any kit on a fresh database with the repository's templates, driven in process
/// through its router — the same handlers the server runs.
struct KitTestBoard {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let csrf = "0123456789abcdef0123456789abcdef"

    let service: BoardService
    let router: Router
    let directory: URL

    init(kit: BoardKit) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        service = try await BoardService(kit: kit, databasePath: directory.appendingPathComponent("board.sqlite").path,
                                         templatesDirectory: Self.root.appendingPathComponent("Templates").path)
        var router = Router()
        service.addRoutes(to: &router)
        self.router = router
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func get(_ path: String) -> String {
        let response = router.respond(to: Request(method: .get, path: path, headers: ["Cookie": "\(RequestGuard.cookieName)=\(Self.csrf)"]))
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    func post(_ path: String, _ object: Any) throws -> (status: Int, json: [String: Any]) {
        let body = try JSONSerialization.data(withJSONObject: object)
        let response = router.respond(to: Request(method: .post, path: path, headers: [
            "Cookie": "\(RequestGuard.cookieName)=\(Self.csrf)", RequestGuard.headerName: Self.csrf, "Content-Type": "application/json",
        ], body: Array(body)))
        guard case .bytes(let bytes) = response.body else { return (response.status.code, [:]) }
        return (response.status.code, (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:])
    }

    func titles(_ list: String) throws -> [String] { try service.store.rows(in: list).map(\.title) }

    /// Drags `items` of `list` and drops them on `target` over `row` (`nil`: below every row, as
    /// on an empty list); returns the drop's answer.
    func move(_ items: [String], of list: String, to target: String, row: Int?, copy: Bool = false) throws -> (status: Int, json: [String: Any]) {
        let token = DragSessions.randomToken()
        let begun = try post("/api/sessions", ["token": token, "list": list, "items": items])
        guard begun.status == 201 else { return begun }
        return try post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try service.store.version(), "copy": copy,
                                                        "target": ["list": target], "location": row.map { ["row": $0, "fraction": 0.3] as Any } ?? NSNull()])
    }

    /// Drops `text` from another app on `target`.
    func dropText(_ text: String, on target: String) throws -> (status: Int, json: [String: Any]) {
        let token = DragSessions.randomToken()
        let begun = try post("/api/sessions/external", ["token": token, "types": ["text/plain"], "files": [String]()])
        guard begun.status == 201 else { return begun }
        return try post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try service.store.version(),
                                                        "target": ["list": target], "location": NSNull(), "data": [["text/plain", text]]])
    }
}
