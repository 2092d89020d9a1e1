@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import DragboardTesting

/// A card's details, the board's labels and colour through the real router: each edit one
/// version, refused with a 4xx that changes nothing, shown on the card's page and its tile.
@Suite struct CardRouteTests {
    /// A new board with one list and one card; returns the board, list and card ids.
    func card(_ board: TestBoard) throws -> (board: String, list: String, card: String) {
        let created = board.form("/boards", ["title": "Work", "color": "teal"])
        let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
        _ = board.form("/boards/\(id)/lists", ["title": "Doing"])
        let list = try #require(try board.store.lists(board: id).first).id
        _ = board.form("/boards/\(id)/lists/\(list)/items", ["title": "Write"])
        return (id, list, try #require(try board.store.rows(in: list, board: id).first).id)
    }

    func details(_ board: TestBoard, _ ids: (board: String, list: String, card: String)) throws -> CardDetails {
        CardDetails.of(payload: try #require(try board.store.rows(in: ids.list, board: ids.board).first).payload)
    }

    func label(_ board: TestBoard, _ id: String, _ name: String, _ color: String) throws -> String {
        #expect(board.form("/boards/\(id)/labels", ["name": name, "color": color]).status.code == 303)
        return try #require(try board.store.read(board: id) { try $0.labels() }.all.first { $0.name == name }).id
    }

    @Test func theCardsFormSavesEveryDetailAsOneVersionAndTheTileShowsThem() async throws {
        let board = try await TestBoard()
        let ids = try card(board)
        let urgent = try label(board, ids.board, "Urgent", "red")
        let later = try label(board, ids.board, "Later", "grey")
        let version = try board.store.version(board: ids.board)
        let saved = board.form("/boards/\(ids.board)/cards/\(ids.card)", pairs: [
            ("title", "Write it"), ("description", "See https://example.com\nthen <b>go</b>"), ("due", "2026-12-03"),
            ("label", later), ("label", urgent),
        ])
        #expect(saved.status.code == 303 && saved.headers["Location"] == "/boards/\(ids.board)/cards/\(ids.card)")
        #expect(try board.store.version(board: ids.board) == version + 1)
        let details = try details(board, ids)
        #expect(details.description == "See https://example.com\nthen <b>go</b>" && details.due == "2026-12-03")
        #expect(details.labels == [urgent, later])   // the board's order
        #expect(try board.store.rows(in: ids.list, board: ids.board).first?.title == "Write it")

        let tile = TestBoard.text(board.request(.get, "/boards/\(ids.board)"))
        #expect(tile.contains(#"<span class="chip" data-color="red">Urgent</span><span class="chip" data-color="grey">Later</span>"#))
        #expect(tile.contains(#"data-badge="due" data-due="2026-12-03""#) && tile.contains("3 Dec 2026"))
        #expect(tile.contains(#"data-badge="description""#) && !tile.contains(#"data-badge="checklist""#))

        let page = TestBoard.text(board.request(.get, "/boards/\(ids.board)/cards/\(ids.card)"))
        #expect(page.contains(#"data-form="card-details""#) && page.contains(#"data-form="new-check""#))
        #expect(page.contains(#"<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">https://example.com</a><br>"#))
        #expect(page.contains("then &lt;b&gt;go&lt;/b&gt;"))
        #expect(page.contains(#"value="\#(urgent)" checked"#) && page.contains(#"name="due" type="date" value="2026-12-03""#))
        // Cleared: the due date goes, the labels go.
        #expect(board.form("/boards/\(ids.board)/cards/\(ids.card)", pairs: [("title", "Write it"), ("description", ""), ("due", "")]).status.code == 303)
        #expect(try self.details(board, ids).isEmpty)
    }

    @Test func badDetailsAreRefusedWithWordsAndChangeNothing() async throws {
        let board = try await TestBoard()
        let ids = try card(board)
        let path = "/boards/\(ids.board)/cards/\(ids.card)"
        let version = try board.store.version(board: ids.board)
        let cases: [([(String, String)], Int, String)] = [
            ([("title", "T"), ("description", String(repeating: "x", count: 10_001))], 400, "at most 10,000"),
            ([("title", "T"), ("due", "2026-02-30")], 400, "not a date"),
            ([("title", "T"), ("label", "forged-label")], 400, "not a label of this board"),
            ([("title", "")], 400, "title"),
        ]
        for (fields, status, words) in cases {
            let response = board.form(path, pairs: fields)
            #expect(response.status.code == status, "\(fields.map(\.0))")
            #expect(TestBoard.text(response).contains(words), "\(TestBoard.text(response).prefix(300))")
        }
        #expect(board.form("/boards/\(ids.board)/cards/no-such-card", pairs: [("title", "T")]).status.code == 404)
        #expect(board.form("/boards/demo/cards/\(ids.card)", pairs: [("title", "T")]).status.code == 404)   // another board's card
        #expect(board.form("/boards/\(ids.board)/labels", ["name": "X", "color": "chartreuse"]).status.code == 400)
        #expect(board.form("/boards/\(ids.board)/labels", ["name": "", "color": "red"]).status.code == 400)
        #expect(board.form("/boards/\(ids.board)/labels/nope", ["name": "X", "color": "red"]).status.code == 404)
        #expect(board.form("/boards/\(ids.board)/color", ["color": "url(x)"]).status.code == 400)
        #expect(board.form("\(path)/checks", ["title": ""]).status.code == 400)
        #expect(board.form("\(path)/checks/nope", ["done": "true"]).status.code == 404)
        #expect(board.request(.get, "/boards/\(ids.board)/cards/nope").status.code == 404)
        #expect(try board.store.version(board: ids.board) == version)
        #expect(try details(board, ids).isEmpty)
    }

    @Test func aChecklistIsAddedToggledReorderedAndDeleted() async throws {
        let board = try await TestBoard()
        let ids = try card(board)
        let path = "/boards/\(ids.board)/cards/\(ids.card)/checks"
        for title in ["One", "Two", "Three"] { #expect(board.form(path, ["title": title]).status.code == 303) }
        var checks = try details(board, ids).checklist
        #expect(checks.map(\.title) == ["One", "Two", "Three"])
        #expect(board.form("\(path)/\(checks[1].id)", ["done": "true"]).status.code == 303)
        #expect(board.form("\(path)/\(checks[1].id)", ["done": "maybe"]).status.code == 400)
        #expect(board.form("\(path)/\(checks[2].id)/move", ["index": "0"]).status.code == 303)
        #expect(board.form("\(path)/\(checks[2].id)/move", ["index": "-1"]).status.code == 400)
        #expect(board.form("\(path)/\(checks[2].id)/move", ["index": "x"]).status.code == 400)
        checks = try details(board, ids).checklist
        #expect(checks.map(\.title) == ["Three", "One", "Two"] && checks.map(\.done) == [false, false, true])
        let tile = TestBoard.text(board.request(.get, "/boards/\(ids.board)"))
        #expect(tile.contains(#"title="Checklist: 1 of 3 done">"#) && tile.contains("1/3</span>"))
        #expect(board.form("\(path)/\(checks[0].id)/delete", [:]).status.code == 303)
        #expect(try details(board, ids).checklist.map(\.title) == ["One", "Two"])
    }

    @Test func detailEditsAreUndoneThroughTheHistoryAndHeardLive() async throws {
        let board = try await TestBoard(transport: .live)
        defer { board.remove() }
        let ids = try card(board)
        let events = try board.app.events(board: ids.board)
        func undo(_ path: String) throws -> Int { try board.post(path, ["op": UUID().uuidString.lowercased(), "board": ids.board]).status }
        let path = "/boards/\(ids.board)/cards/\(ids.card)"
        #expect(board.form(path, pairs: [("title", "Write"), ("description", "First notes")]).status.code == 303)
        let change = try events.next(named: "changes").data
        #expect(change.contains(#""kind":"replace""#) && change.contains(#"data-badge=\"description\""#))
        #expect(try undo("/api/undo") == 200)
        #expect(try details(board, ids).isEmpty)
        #expect(try undo("/api/redo") == 200)
        #expect(try details(board, ids).description == "First notes")
        // A label changes every card that may wear it: viewers read the lists again.
        _ = try label(board, ids.board, "Soon", "yellow")
        var heard = try events.next(named: "changes").data
        while !heard.contains(#""kind":"resync""#) { heard = try events.next(named: "changes").data }
    }

    @Test func theIndexShowsEachBoardsColourCountsAndTheFilterFindsCards() async throws {
        let board = try await TestBoard()
        let ids = try card(board)
        let index = TestBoard.text(board.request(.get, "/"))
        #expect(index.contains(#"<li class="board-tile" data-color="teal"><a href="/boards/\#(ids.board)""#))
        #expect(index.contains("1 list · 1 card"))
        #expect(board.form("/boards/\(ids.board)/color", ["color": "pink"]).status.code == 303)
        #expect(try board.store.board(ids.board)?.color == .pink)
        let urgent = try label(board, ids.board, "Urgent", "red")
        _ = board.form("/boards/\(ids.board)/cards/\(ids.card)", pairs: [("title", "Write"), ("label", urgent)])
        _ = board.form("/boards/\(ids.board)/lists/\(ids.list)/items", ["title": "Other"])
        func search(_ query: String) -> Response {
            board.router.respond(to: Request(method: .get, path: "/boards/\(ids.board)/api/search", query: ["q": query],
                                             headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"]))
        }
        #expect(TestBoard.json(search("URG"))["items"] as? [String] == [ids.card])
        #expect(search(String(repeating: "q", count: 201)).status.code == 400)
    }
}

/// A list moved and sorted from its menu: plain forms, one version each.
@Suite struct ListMenuRouteTests {
    @Test func aListMovesToAPlaceAndSortsByTitleOrDueDate() async throws {
        let board = try await TestBoard()
        let created = board.form("/boards", ["title": "Lists"])
        let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
        for title in ["A", "B", "C"] { _ = board.form("/boards/\(id)/lists", ["title": title]) }
        let lists = try board.store.lists(board: id).map(\.id)
        #expect(board.form("/boards/\(id)/lists/\(lists[2])/move", ["place": "1"]).status.code == 303)
        #expect(try board.store.lists(board: id).map(\.title) == ["C", "A", "B"])
        #expect(board.form("/boards/\(id)/lists/\(lists[2])/move", ["index": "2"]).status.code == 303)
        #expect(try board.store.lists(board: id).map(\.title) == ["A", "B", "C"])
        let version = try board.store.version(board: id)
        for bad in [["place": "0"], ["place": "4"], ["index": "x"], [:]] {
            #expect(board.form("/boards/\(id)/lists/\(lists[2])/move", bad).status.code == 400, "\(bad)")
        }
        #expect(try board.store.version(board: id) == version)

        for title in ["pear", "Apple", "banana 10", "banana 9"] { _ = board.form("/boards/\(id)/lists/\(lists[0])/items", ["title": title]) }
        let rows = try board.store.rows(in: lists[0], board: id)
        _ = board.form("/boards/\(id)/cards/\(rows[0].id)", ["title": "pear", "due": "2026-01-05"])
        _ = board.form("/boards/\(id)/cards/\(rows[2].id)", ["title": "banana 10", "due": "2025-12-31"])
        #expect(board.form("/boards/\(id)/lists/\(lists[0])/sort", ["by": "title"]).status.code == 303)
        #expect(try board.store.rows(in: lists[0], board: id).map(\.title) == ["Apple", "banana 9", "banana 10", "pear"])
        #expect(board.form("/boards/\(id)/lists/\(lists[0])/sort", ["by": "due"]).status.code == 303)
        #expect(try board.store.rows(in: lists[0], board: id).map(\.title) == ["banana 10", "pear", "Apple", "banana 9"])
        #expect(board.form("/boards/\(id)/lists/\(lists[0])/sort", ["by": "colour"]).status.code == 400)
    }
}

/// A card deleted by someone else while it is dragged: the drop says so, and changes nothing.
@Suite struct DeletedWhileDraggedTests {
    @Test func theDropSaysTheCardWasDeletedNotMoved() async throws {
        let board = try await TestBoard()
        let card = try board.ids("cat-1")[0]
        let title = try board.titles("cat-1")[0]
        let token = try board.begin("cat-1", [card])
        #expect(board.form("/boards/demo/items/delete", ["item": card]).status.code == 303)
        let version = try board.store.version()
        let (status, json) = try board.drop(token, list: "cat-2", row: 0)
        #expect(status == 409)
        let message = (json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message == "“\(title)” was deleted by someone else while you dragged it; nothing was changed")
        #expect(try board.store.version() == version)
    }

    @Test func withAccountsTheDropSaysWhoDeletedIt() async throws {
        let s = try await RoleDragTests.setup(.editor)
        defer { s.board.remove() }
        let title = try s.board.store.rows(in: s.list, board: "demo").first { $0.id == s.items[0] }!.title
        let begun = try RoleDragTests.begin(s.bob, list: s.list, item: s.items[0])
        let token = try #require(begun.json?["token"] as? String)
        #expect(try s.alice.postForm("/boards/demo/items/delete", ["item": s.items[0]]).status == 303)
        let version = try s.board.store.version()
        let drop = try s.bob.post("/api/sessions/\(token)/drop", json: ["op": UUID().uuidString, "version": version, "target": ["list": s.other],
                                                                       "location": ["row": 0, "fraction": 0.2]])
        #expect(drop.status == 409)
        #expect(drop.text.contains("“\(title)” was deleted by alice while you dragged it; nothing was changed"), "\(drop.text)")
        #expect(try s.board.store.version() == version)
    }
}

/// What a browser without JavaScript gets around a change: a deletion asks first, and the board
/// it returns to says what was done, with an Undo button that works as a plain form.
@Suite struct PlainFormTests {
    @Test func aListWithCardsIsDeletedOnlyOnceConfirmedAndTheBoardOffersUndo() async throws {
        let board = try await TestBoard()
        let created = board.form("/boards", ["title": "Plain"])
        let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
        _ = board.form("/boards/\(id)/lists", ["title": "Errands"])
        let list = try #require(try board.store.lists(board: id).first).id
        _ = board.form("/boards/\(id)/lists/\(list)/items", ["title": "Milk"])
        let version = try board.store.version(board: id)
        let asked = board.form("/boards/\(id)/lists/\(list)/delete", ["op": "delete-errands"])
        #expect(asked.status.code == 200)
        let question = TestBoard.text(asked)
        #expect(question.contains("Delete the list “Errands”?") && question.contains("Its 1 card goes with it."))
        #expect(question.contains(#"<input type="hidden" name="confirmed" value="yes">"#) && question.contains(#"action="/boards/\#(id)/lists/\#(list)/delete""#))
        #expect(try board.store.version(board: id) == version)   // asking changed nothing

        let deleted = board.form("/boards/\(id)/lists/\(list)/delete", ["op": "delete-errands", "confirmed": "yes"])
        #expect(deleted.headers["Location"] == "/boards/\(id)?done=delete-errands")
        #expect(try board.store.lists(board: id).isEmpty)
        let page = TestBoard.text(board.router.respond(to: Request(method: .get, path: "/boards/\(id)", query: ["done": "delete-errands"],
                                                                   headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"])))
        #expect(page.contains("<p>Deleted the list Errands.</p>") && page.contains(#"action="/boards/\#(id)/undo""#))
        let undone = board.form("/boards/\(id)/undo", ["op": "undo-errands"])
        #expect(undone.status.code == 303 && undone.headers["Location"] == "/boards/\(id)?done=undo-errands")
        #expect(try board.store.lists(board: id).map(\.title) == ["Errands"])
        #expect(try board.store.rows(in: list, board: id).map(\.title) == ["Milk"])
        // A forged or unknown `done` shows nothing.
        for done in ["nope-nope-nope", "<script>"] {
            let other = TestBoard.text(board.router.respond(to: Request(method: .get, path: "/boards/\(id)", query: ["done": done],
                                                                        headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"])))
            #expect(!other.contains("data-notice"))
        }
    }
}
