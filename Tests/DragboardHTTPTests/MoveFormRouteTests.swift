@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Moving a row without JavaScript: the move page offers what the engine allows, the form is
/// decided by the engine like a drop, and bad input is a 4xx that changes nothing.
@Suite struct MoveFormRouteTests {
    @Test func theMovePageOffersTheDestinationsTheEngineAllows() async throws {
        let board = try await TestBoard()
        let ada = try board.ids("people")[0]
        let response = board.request(.get, "/boards/demo/move", headers: [:])
        #expect(response.status.code == 404)   // no item named
        var request = Request(method: .get, path: "/boards/demo/move", query: ["item": ada],
                              headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"])
        let page = TestBoard.text(board.router.respond(to: request))
        #expect(page.contains(#"data-form="move""#) && page.contains(#"<optgroup label="Move to People"><option value="list:people">Move to People, at the bottom</option>"#))
        #expect(page.contains(#"<option value="list:places">Copy to Places, at the bottom</option><option value="list:places@top">Copy to Places, at the top</option>"#))
        #expect(page.contains(#"Copy to Places, after Lisbon</option>"#))
        #expect(!page.contains(#"after Ada Lovelace"#))   // the row itself is no place
        #expect(!page.contains("list:cat-1"))   // cats forbid people
        #expect(board.service.sessions.count == 0)
        request.query = ["item": "nope"]
        #expect(board.router.respond(to: request).status.code == 404)
    }

    @Test func theFormMovesTheRowToTheEndOfTheListAndRedirectsBack() async throws {
        let board = try await TestBoard()
        let mouse = try board.ids("cat-1")[2]
        let before = try board.store.version()
        let response = board.form("/boards/demo/move", ["item": mouse, "to": "list:cat-2", "op": "move-form-1"])
        #expect(response.status.code == 303)
        #expect(response.headers["Location"] == "/boards/demo?done=move-form-1")   // the board says what the form did
        #expect(try board.titles("cat-2") == ["Laser pointer", "Bell ball", "Catnip mouse"])
        #expect(try board.store.version() == before + 1)
        #expect(board.service.sessions.count == 0)
    }

    @Test func aRowGoesToTheTopAfterANamedCardOrToAnotherBoard() async throws {
        let board = try await TestBoard()
        let (mouse, yarn) = (try board.ids("cat-1")[2], try board.ids("cat-1")[0])
        let bell = try board.ids("cat-2")[1]
        #expect(board.form("/boards/demo/move", ["item": mouse, "to": "list:cat-2@top"]).status.code == 303)
        #expect(try board.titles("cat-2") == ["Catnip mouse", "Laser pointer", "Bell ball"])
        #expect(board.form("/boards/demo/move", ["item": yarn, "to": "list:cat-2@after:\(bell)"]).status.code == 303)
        #expect(try board.titles("cat-2") == ["Catnip mouse", "Laser pointer", "Bell ball", "Ball of yarn"])
        #expect(board.form("/boards/demo/move", ["item": yarn, "to": "list:cat-2@after:\(yarn)-gone"]).status.code == 409)
        #expect(board.form("/boards/demo/move", ["item": yarn, "to": "list:cat-2@sideways"]).status.code == 400)

        // Another board: the page lists its lists, and the form moves the card there.
        func newBoard(_ title: String) throws -> (board: String, list: String) {
            let created = board.form("/boards", ["title": title])
            let id = String(try #require(created.headers["Location"]).dropFirst("/boards/".count))
            _ = board.form("/boards/\(id)/lists", ["title": "Inbox"])
            return (id, try #require(try board.store.lists(board: id).first).id)
        }
        let (here, todo) = try newBoard("Here"), (other, inbox) = try newBoard("Elsewhere")
        _ = board.form("/boards/\(here)/lists/\(todo)/items", ["title": "Travel"])
        let card = try #require(try board.store.rows(in: todo, board: here).first).id
        let request = Request(method: .get, path: "/boards/\(here)/move", query: ["item": card, "to-board": other],
                              headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"])
        let page = TestBoard.text(board.router.respond(to: request))
        #expect(page.contains(#"<option value="\#(other)" selected>Elsewhere</option>"#))
        #expect(page.contains(#"<input type="hidden" name="board" value="\#(other)">"#) && page.contains("list:\(inbox)"), "\(page)")
        #expect(board.form("/boards/\(here)/move", ["item": card, "to": "list:\(inbox)", "board": other]).status.code == 303)
        #expect(try board.store.rows(in: inbox, board: other).map(\.title) == ["Travel"])
        #expect(try board.store.rows(in: todo, board: here).isEmpty)
    }

    @Test func aRefusedOrBadMoveSaysWhyAndChangesNothing() async throws {
        let board = try await TestBoard()
        let ada = try board.ids("people")[0]
        let before = try board.store.version()
        let refused = board.form("/boards/demo/move", ["item": ada, "to": "list:cat-2"])
        #expect(refused.status.code == 422)
        #expect(TestBoard.text(refused).contains("Not moved: Tom only plays with toys, not with people."))
        #expect(board.form("/boards/demo/move", ["item": ada, "to": "cat-2"]).status.code == 400)
        #expect(board.form("/boards/demo/move", ["item": ada, "to": "list:nowhere"]).status.code == 404)
        #expect(board.form("/boards/demo/move", ["item": "missing", "to": "list:cat-1"]).status.code == 404)
        #expect(board.form("/boards/demo/move", ["item": ada, "to": "list:cat-1", "csrf": "forged"]).status.code == 403)
        #expect(try board.store.version() == before)
        #expect(try board.titles("people") == ["Ada Lovelace", "Alan Turing", "Grace Hopper"])
        #expect(board.service.sessions.count == 0)
    }
}
