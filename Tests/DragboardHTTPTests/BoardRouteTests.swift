@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// The board index, board pages and plain-form board creation, through the real router.
@Suite struct BoardRouteTests {
    @Test func theIndexListsBoardsNewestFirstWithTheNewBoardForm() async throws {
        let board = try await TestBoard()
        let index = TestBoard.text(board.request(.get, "/"))
        #expect(index.contains(#"data-board-link="demo""#))
        #expect(index.contains(#"data-form="new-board""#) && index.contains(#"name="title""#) && index.contains(#"name="csrf" value="\#(board.csrf)""#))
        // The kit's seeded board has not changed since: no date to show (it would say 1970).
        #expect(!index.contains("board-tile-activity"))

        let created = board.form("/boards", ["title": "Groceries & more", "op": "create-groceries"])
        #expect(created.status.code == 303)
        let location = try #require(created.headers["Location"])
        let id = String(location.dropFirst("/boards/".count))
        #expect(location.hasPrefix("/boards/") && WireGrammar.idProblem(id) == nil)
        #expect(try board.store.board(id)?.title == "Groceries & more")
        #expect(try board.store.boards().map(\.id) == [id, "demo"])
        // The new board says when it changed; the seeded one still does not.
        let tiles = TestBoard.text(board.request(.get, "/")).components(separatedBy: "board-tile-activity").dropFirst()
        #expect(tiles.count == 1 && tiles.first?.contains(#"<time datetime=""#) == true)

        let page = TestBoard.text(board.request(.get, location))
        #expect(page.contains(#"data-board="\#(id)""#) && page.contains("Groceries &amp; more"))
        #expect(!page.contains("data-zone"))   // the kit's zones sit on the default board

        // The same form posted again (a retry) opens the same board and makes no other.
        #expect(board.form("/boards", ["title": "Groceries & more", "op": "create-groceries"]).headers["Location"] == location)
        #expect(try board.store.boards().count == 2)
    }

    @Test func badTitlesAndMissingTokensAreRefusedAndChangeNothing() async throws {
        let board = try await TestBoard()
        for (title, words) in [("", "empty"), ("   ", "empty"), (String(repeating: "x", count: 501), "shorten"), ("a\u{07}b", "control character")] {
            let response = board.form("/boards", ["title": title])
            #expect(response.status.code == 400, "\(title.debugDescription)")
            #expect(TestBoard.text(response).contains(words), "\(title.debugDescription)")
        }
        #expect(board.form("/boards", ["title": String(repeating: "y", count: 500)]).status.code == 303)
        #expect(board.form("/boards", ["title": "No token", "csrf": "ffffffffffffffffffffffffffffffff"]).status.code == 403)
        #expect(try board.store.boards().count == 2)
        #expect(board.request(.get, "/boards/nope").status.code == 404)
        #expect(board.request(.get, "/boards/nope/api/board").status.code == 404)
    }

    @Test func aSessionNamesItsBoardAndListsOfAnotherBoardAreUnknown() async throws {
        let board = try await TestBoard()
        _ = try board.store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "inbox", title: "Inbox", kind: "cat", position: 0)); return "{}"
        }
        let item = try board.ids("cat-1")[0]
        let refused = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [item], "board": "b2"])
        #expect(refused.status == 404)

        // Begun on the demo board, joined by a window of board b2, dropped there: a move.
        let token = try board.begin("cat-1", [item])
        let joined = try board.post("/api/sessions/\(token)/join", ["board": "b2"])
        #expect(joined.status == 200)
        let demoVersion = try board.store.version()
        let dropped = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": 1, "target": ["list": "inbox"], "location": NSNull()])
        #expect(dropped.status == 200, "\(dropped.json)")
        #expect(dropped.json["operation"] as? String == "move")
        #expect(try board.store.rows(in: "inbox", board: "b2").map(\.id) == [item])
        #expect(try !board.ids("cat-1").contains(item))
        #expect(try board.store.version() == demoVersion + 1)
        // The window the drag began in learns at its end that its board moved on without it.
        #expect(try board.post("/api/sessions/\(token)/end", [:]).json["version"] as? Int == demoVersion + 1)
    }

    @Test func aListDraggedByItsHeaderMovesBetweenListsAndOnlyThere() async throws {
        let board = try await TestBoard()
        let before = try board.store.lists().map(\.id)
        let last = try #require(before.last)
        let token = TestBoard.token()
        let begun = try board.post("/api/sessions", ["token": token, "list": BoardKit.listsTargetID, "items": [last]])
        #expect(begun.status == 201)
        // Its only target is the board: a list is not a row of another list.
        let onList = try board.post("/api/sessions/\(token)/target", ["target": ["list": before[0]], "location": ["row": 0, "fraction": 0.2]])
        #expect(onList.json["handled"] as? Bool != true)
        let dropped = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                     "target": ["list": BoardKit.listsTargetID], "location": ["row": 1, "fraction": 0.2, "item": before[1]]])
        #expect(dropped.status == 200, "\(dropped.json)")
        #expect(dropped.json["operation"] as? String == "move")
        #expect(try board.store.lists().map(\.id) == [before[0], last] + before.dropFirst().dropLast())
        // Dropping it back after the last list.
        let again = TestBoard.token()
        #expect(try board.post("/api/sessions", ["token": again, "list": BoardKit.listsTargetID, "items": [last]]).status == 201)
        let back = try board.post("/api/sessions/\(again)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                  "target": ["list": BoardKit.listsTargetID], "location": NSNull()])
        #expect(back.status == 200, "\(back.json)")
        #expect(try board.store.lists().map(\.id) == before)
    }
}
