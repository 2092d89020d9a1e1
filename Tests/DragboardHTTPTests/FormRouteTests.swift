@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// The board's forms as plain POSTs (what a browser without JavaScript sends) and as fetches
/// asking for JSON: each one store operation, refused with a 4xx that changes nothing.
@Suite struct FormRouteTests {
    /// A new board with one Cards list; returns the board and list ids.
    func board(_ board: TestBoard, title: String = "Mine") throws -> (String, String) {
        let created = board.form("/boards", ["title": title])
        let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
        #expect(board.form("/boards/\(id)/lists", ["title": "Ideas"]).headers["Location"] == "/boards/\(id)")
        let list = try #require(try board.store.lists(board: id).first)
        #expect(list.kind == CardsList.id && list.title == "Ideas")
        return (id, list.id)
    }

    @Test func thePageOffersEveryFormWithItsTokenAndTheCardsKindFirst() async throws {
        let board = try await TestBoard()
        let (id, list) = try self.board(board)
        let page = TestBoard.text(board.request(.get, "/boards/\(id)"))
        for form in ["new-list", "new-item", "rename-board", "delete-board", "delete-list", "delete-item", "rename-list"] {
            #expect(page.contains(#"data-form="\#(form)""#), "\(form)")
        }
        #expect(page.contains(#"<option value="cards" selected>Cards</option>"#))
        #expect(page.contains(#"id="delete-item-\#(list)""#))
        #expect(!page.contains(#"name="csrf" value="""#))
        let demo = TestBoard.text(board.request(.get, "/boards/demo"))
        #expect(demo.contains(#"data-form="remove-image""#) && demo.contains(#"action="/boards/demo/images/delete""#))
        #expect(demo.contains(#"form="delete-item-cat-1" name="item""#))
    }

    @Test func cardsAreAddedRenamedAndDeletedEachAsOneVersion() async throws {
        let board = try await TestBoard()
        let (id, list) = try self.board(board)
        let start = try board.store.version(board: id)
        #expect(board.form("/boards/\(id)/lists/\(list)/items", ["title": "First"]).status.code == 303)
        #expect(board.form("/boards/\(id)/lists/\(list)/items", ["title": "Second"]).status.code == 303)
        let rows = try board.store.rows(in: list, board: id)
        #expect(rows.map(\.title) == ["First", "Second"])
        #expect(board.form("/boards/\(id)/items/rename", ["item": rows[0].id, "title": "Renamed"]).status.code == 303)
        #expect(board.form("/boards/\(id)/items/delete", ["item": rows[1].id]).status.code == 303)
        #expect(try board.store.rows(in: list, board: id).map(\.title) == ["Renamed"])
        #expect(try board.store.version(board: id) == start + 4)
        // Deleting what is gone, or a row of another board, is a 404 that changes nothing.
        #expect(board.form("/boards/\(id)/items/delete", ["item": rows[1].id]).status.code == 404)
        let demoRow = try board.ids("cat-1")[0]
        #expect(board.form("/boards/\(id)/items/delete", ["item": demoRow]).status.code == 404)
        #expect(board.form("/boards/\(id)/lists/cat-1/items", ["title": "Sneaky"]).status.code == 404)
        #expect(try board.ids("cat-1").contains(demoRow))
        #expect(try board.store.version(board: id) == start + 4)
    }

    @Test func listsAndBoardsAreRenamedAndDeleted() async throws {
        let board = try await TestBoard()
        let (id, list) = try self.board(board)
        #expect(board.form("/boards/\(id)/lists/\(list)/items", ["title": "Card"]).status.code == 303)
        #expect(board.form("/boards/\(id)/lists/\(list)/rename", ["title": "Later"]).status.code == 303)
        #expect(try board.store.lists(board: id).map(\.title) == ["Later"])
        #expect(board.form("/boards/\(id)/rename", ["title": "Home"]).status.code == 303)
        #expect(try board.store.board(id)?.title == "Home")
        #expect(board.form("/boards/\(id)/lists/\(list)/delete", ["confirmed": "yes"]).status.code == 303)
        #expect(try board.store.lists(board: id).isEmpty)
        #expect(board.form("/boards/\(id)/lists/\(list)/delete", ["confirmed": "yes"]).status.code == 404)
        let deleted = board.form("/boards/\(id)/delete", ["confirmed": "yes"])
        #expect(deleted.status.code == 303 && deleted.headers["Location"] == "/")
        #expect(try board.store.board(id) == nil)
        #expect(board.form("/boards/demo/delete", ["confirmed": "yes"]).status.code == 409)
    }

    @Test func badInputIsA4xxThatSaysWhatToFixAndChangesNothing() async throws {
        let board = try await TestBoard()
        let (id, list) = try self.board(board)
        let version = try board.store.version(board: id)
        let cases: [(String, [String: String], Int, String)] = [
            ("/boards/\(id)/lists/\(list)/items", ["title": ""], 400, "empty"),
            ("/boards/\(id)/lists/\(list)/items", ["title": String(repeating: "x", count: 501)], 400, "shorten"),
            ("/boards/\(id)/lists/\(list)/items", ["title": "tab\there"], 400, "control character"),
            ("/boards/\(id)/lists", ["title": "Odd", "kind": "no-such-kind"], 400, "unknown list kind"),
            ("/boards/\(id)/rename", ["title": "\u{1B}[31m"], 400, "control character"),
            ("/boards/nope/lists", ["title": "Nowhere"], 404, "unknown board"),
            ("/boards/\(id)/lists/\(list)/items", ["title": "No token", "csrf": "ffffffffffffffffffffffffffffffff"], 403, "CSRF"),
        ]
        for (path, fields, status, words) in cases {
            let response = board.form(path, fields)
            #expect(response.status.code == status, "\(path) \(fields)")
            #expect(TestBoard.text(response).lowercased().contains(words.lowercased()), "\(path) \(fields): \(TestBoard.text(response))")
        }
        // Escapes that decode to bytes that are not UTF-8 are refused, never stored as U+FFFD.
        for raw in ["title=%FF%FE", "title=caf%C3", "title=ok&%80=x", "title=%ED%A0%80"] {
            let request = Request(method: .post, path: "/boards/\(id)/lists/\(list)/items",
                                  headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)", "Content-Type": "application/x-www-form-urlencoded"],
                                  body: Array("csrf=\(board.csrf)&\(raw)".utf8))
            let response = board.router.respond(to: request)
            #expect(response.status.code == 400, "\(raw)")
            #expect(TestBoard.text(response).contains("not valid UTF-8"), "\(raw)")
        }
        #expect(try board.store.version(board: id) == version)
        #expect(try board.store.rows(in: list, board: id).isEmpty)
    }

    @Test func aFetchGetsTheChangesAsJSONAndARetryChangesNothingMore() async throws {
        let board = try await TestBoard()
        let (id, list) = try self.board(board)
        var headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)", "Content-Type": "application/x-www-form-urlencoded",
                                    "Accept": "application/json"]
        headers["Origin"] = "http://127.0.0.1:8080"
        headers["Host"] = "127.0.0.1:8080"
        let body = Array("csrf=\(board.csrf)&op=add-once-1234&title=Fetched".utf8)
        let request = Request(method: .post, path: "/boards/\(id)/lists/\(list)/items", headers: headers, body: body)
        let first = TestBoard.json(board.router.respond(to: request))
        let changes = try #require(first["changes"] as? [[String: Any]])
        #expect(changes.first?["kind"] as? String == "insert")
        #expect((changes.first?["html"] as? String)?.contains("Fetched") == true)
        let again = TestBoard.json(board.router.respond(to: request))
        #expect(again["version"] as? Int == first["version"] as? Int)
        #expect(try board.store.rows(in: list, board: id).count == 1)
        headers["Origin"] = "http://evil.example"
        #expect(board.router.respond(to: Request(method: .post, path: "/boards/\(id)/lists/\(list)/items", headers: headers, body: body)).status.code == 403)
    }
}
