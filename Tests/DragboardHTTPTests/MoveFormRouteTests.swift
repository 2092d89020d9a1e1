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
        #expect(page.contains(#"data-form="move""#) && page.contains(#"<option value="list:people">Move to People</option>"#))
        #expect(page.contains(#"<option value="list:places">Copy to Places</option>"#))
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
        #expect(response.headers["Location"] == "/boards/demo")
        #expect(try board.titles("cat-2") == ["Laser pointer", "Bell ball", "Catnip mouse"])
        #expect(try board.store.version() == before + 1)
        #expect(board.service.sessions.count == 0)
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
