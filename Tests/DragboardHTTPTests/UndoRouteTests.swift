@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Undo and redo through the routes: every edit and drop a browser makes is in its own history,
/// taken back as one store operation; bad requests get a 4xx and change nothing.
@Suite struct UndoRouteTests {
    func undo(_ board: TestBoard, _ path: String = "/api/undo", board id: String? = nil, cookie: String? = nil) throws -> (status: Int, json: [String: Any]) {
        var body: [String: Any] = ["op": UUID().uuidString.lowercased()]
        if let id { body["board"] = id }
        return try board.post(path, body, csrf: cookie, cookie: cookie)
    }

    func undoState(_ board: TestBoard, query: [String: String]) -> Response {
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"]
        return board.router.respond(to: Request(method: .get, path: "/api/undo", query: query, headers: headers))
    }

    @Test func editsOfCardsListsAndBoardsAreUndoneWithTheirIDsAndPlaces() async throws {
        let board = try await TestBoard()
        let created = board.form("/boards", ["title": "Mine"])
        let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
        _ = board.form("/boards/\(id)/lists", ["title": "Ideas"])
        let list = try #require(try board.store.lists(board: id).first).id
        for title in ["First", "Second", "Third"] { _ = board.form("/boards/\(id)/lists/\(list)/items", ["title": title]) }
        let rows = try board.store.rows(in: list, board: id).map(\.id)

        _ = board.form("/boards/\(id)/items/delete", ["item": rows[1]])
        #expect(try board.store.rows(in: list, board: id).map(\.id) == [rows[0], rows[2]])
        let version = try board.store.version(board: id)
        let (status, json) = try undo(board, board: id)
        #expect(status == 200)
        #expect(json["message"] as? String == "Undid “Delete Second”.")
        #expect(json["version"] as? Int == version + 1)
        #expect(try board.store.rows(in: list, board: id).map(\.id) == rows)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.contains { $0["kind"] as? String == "insert" && $0["item"] as? String == rows[1] && $0["after"] as? String == rows[0] })

        _ = board.form("/boards/\(id)/lists/\(list)/rename", ["title": "Plans"])
        _ = board.form("/boards/\(id)/lists/\(list)/delete", ["confirmed": "yes"])
        #expect(try board.store.lists(board: id).isEmpty)
        #expect(try undo(board, board: id).status == 200)
        #expect(try board.store.rows(in: list, board: id).map(\.id) == rows)
        #expect(try undo(board, board: id).json["message"] as? String == "Undid “Rename the list to Plans”.")
        #expect(try board.store.lists(board: id).first?.title == "Ideas")

        // A deleted board comes back whole, from wherever the browser asks (its newest change).
        _ = board.form("/boards/\(id)/delete", ["confirmed": "yes"])
        #expect(try board.store.board(id) == nil)
        let restored = try undo(board)
        #expect(restored.status == 200 && restored.json["board"] as? String == id)
        #expect(try board.store.board(id)?.title == "Mine")
        #expect(try board.store.rows(in: list, board: id).map(\.title) == ["First", "Second", "Third"])
        #expect(try undo(board, "/api/redo").status == 200)
        #expect(try board.store.board(id) == nil)
    }

    @Test func aRemovedImageKeepsItsFileUntilTheUndoBringsItBack() async throws {
        let board = try await TestBoard()
        let image = ZoneImageRecord(id: "0f0e0d0c-0000-4000-8000-000000000001", zoneID: "image-well", name: "cat.png", mimeType: "image/png", size: 3)
        _ = try board.store.perform(operationID: "seed-image", fingerprint: "f") { tx in try tx.addImage(image); return "" }
        let file = board.service.imagesDirectory.appendingPathComponent(image.id)
        try Data([1, 2, 3]).write(to: file)

        _ = board.form("/boards/demo/images/delete", ["image": image.id])
        #expect(try board.store.read { try $0.image(image.id) } == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let (status, json) = try undo(board, board: "demo")
        #expect(status == 200)
        #expect(try board.store.read { try $0.image(image.id) } == image)
        #expect(try Data(contentsOf: file) == Data([1, 2, 3]))
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.contains { $0["kind"] as? String == "zone" && ($0["html"] as? String ?? "").contains(image.id) })
        #expect(board.request(.get, "/images/\(image.id)").status.code == 200)
    }

    @Test func aDropIsUndoneAndEachBrowserHasItsOwnHistory() async throws {
        let board = try await TestBoard()
        let before = try board.ids("cat-1")
        let token = try board.begin("cat-1", [before[1]])
        let dropped = try board.drop(token, list: "cat-2", row: 0)
        #expect(dropped.status == 200)
        let state = TestBoard.json(undoState(board, query: ["board": "demo"]))
        #expect((state["undoActionName"] as? String)?.hasPrefix("Move ") == true)

        let stranger = "fedcba9876543210fedcba9876543210"
        let refused = try undo(board, board: "demo", cookie: stranger)
        #expect(refused.status == 409)
        #expect((refused.json["error"] as? [String: Any])?["message"] as? String == "There is nothing to undo.")
        #expect(try board.ids("cat-1") != before)

        #expect(try undo(board, board: "demo").status == 200)
        #expect(try board.ids("cat-1") == before)
    }

    @Test func badUndoRequestsAreRefusedAndChangeNothing() async throws {
        let board = try await TestBoard()
        _ = board.form("/boards/demo/rename", ["title": "Renamed"])
        let version = try board.store.version()
        #expect(try board.post("/api/undo", ["op": "x y"]).status == 400)
        #expect(try board.post("/api/undo", ["op": "abcdefgh12", "board": "../etc"]).status == 400)
        #expect(try board.post("/api/undo", ["board": "demo"]).status == 400)
        #expect(board.request(.post, "/api/undo", json: #"{"op":"abcdefgh12"}"#, csrf: "0000000000000000000000000000000f").status.code == 403)
        #expect(undoState(board, query: ["board": "../"]).status.code == 404)
        #expect(try board.store.version() == version)
        #expect(try board.store.board("demo")?.title == "Renamed")
    }

    @Test func theSwiftAPIIsShapedLikeUndoManager() async throws {
        let board = try await TestBoard()
        _ = board.form("/boards/demo/lists/cat-1/rename", ["title": "Whiskers II"])
        let manager = board.service.undoManager(forBrowser: board.csrf, board: "demo")
        #expect(manager.canUndo && !manager.canRedo)
        #expect(manager.undoActionName == "Rename the list to Whiskers II")
        #expect(try manager.undo() == "Undid “Rename the list to Whiskers II”.")
        #expect(try board.store.lists().first?.title == "Whiskers")
        #expect(!manager.canUndo && manager.redoActionName == "Rename the list to Whiskers II")
        try manager.redo()
        #expect(try board.store.lists().first?.title == "Whiskers II")
        #expect(throws: HTTPError.self) { try board.service.undoManager(forBrowser: "someone-else").redo() }
    }
}
