@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Bad input gets a clear 4xx JSON error and changes nothing.
@Suite struct BadInputRouteTests {
    func expectError(_ response: (status: Int, json: [String: Any]), _ status: Int, code: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        let error = response.json["error"] as? [String: Any]
        #expect(error?["message"] is String, sourceLocation: sourceLocation)
        if let code { #expect(error?["code"] as? String == code, sourceLocation: sourceLocation) }
    }

    @Test func malformedJSONIsA400() async throws {
        let board = try await TestBoard()
        let response = board.request(.post, "/api/sessions", json: "{\"token\": ")
        expectError((response.status.code, TestBoard.json(response)), 400)
    }

    @Test func writesWithoutTheCSRFTokenOrFromAnotherSiteAre403() async throws {
        let board = try await TestBoard()
        let body = ["token": TestBoard.token(), "list": "cat-1", "items": [try board.ids("cat-1")[0]]] as [String: Any]
        expectError(try board.post("/api/sessions", body, csrf: "ffffffffffffffffffffffffffffffff"), 403, code: "forbidden")
        let crossSite = board.request(.post, "/api/sessions", json: "{}", headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status.code == 403)
        let otherOrigin = board.request(.post, "/api/sessions", json: "{}", headers: ["Origin": "http://evil.example", "Host": "127.0.0.1:8080"])
        #expect(otherOrigin.status.code == 403)
        #expect(board.service.sessions.count == 0)
    }

    @Test func forgedOrForeignSessionTokensAre404() async throws {
        let board = try await TestBoard()
        let token = try board.begin("cat-1", [try board.ids("cat-1")[0]])
        let version = try board.store.version()
        expectError(try board.drop(TestBoard.token(), list: "cat-2", row: 0), 404)
        // Another browser (another CSRF cookie) presenting a real token.
        let other = "abcdefabcdefabcdefabcdefabcdef00"
        let foreign = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": version, "target": ["list": "cat-2"]], csrf: other, cookie: other)
        expectError(foreign, 404)
        #expect(try board.store.version() == version)
    }

    @Test func unknownListsItemsAndTargetsAre404() async throws {
        let board = try await TestBoard()
        expectError(try board.post("/api/sessions", ["token": TestBoard.token(), "list": "nope", "items": ["x"]]), 404)
        expectError(try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": ["forged-id"]]), 404)
        let token = try board.begin("cat-1", [try board.ids("cat-1")[0]])
        expectError(try board.drop(token, list: "nowhere", row: 0), 404)
    }

    @Test func outOfRangeRowsAndFractionsAre422AndChangeNothing() async throws {
        let board = try await TestBoard()
        let token = try board.begin("cat-1", [try board.ids("cat-1")[0]])
        let version = try board.store.version()
        expectError(try board.drop(token, list: "cat-2", row: 2), 422)
        expectError(try board.drop(token, list: "cat-2", row: -1), 422)
        expectError(try board.drop(token, list: "cat-2", row: 0, fraction: 7), 422)
        #expect(try board.store.version() == version)
        // The session survives bad input: a correct drop still works.
        #expect(try board.drop(token, list: "cat-2", row: 1).json["operation"] as? String == "move")
    }

    @Test func aReplayedDropAnswersTheSameAndAppliesOnce() async throws {
        let board = try await TestBoard()
        let token = try board.begin("cat-1", [try board.ids("cat-1")[0]])
        let op = UUID().uuidString
        let version = try board.store.version()
        let first = try board.drop(token, list: "cat-3", row: 0, version: version, op: op)
        let again = try board.drop(token, list: "cat-3", row: 0, version: version, op: op)
        #expect(first.status == 200 && again.status == 200)
        #expect(NSDictionary(dictionary: first.json).isEqual(to: again.json))
        #expect(try board.store.version() == version + 1)
        #expect(try board.titles("cat-3") == ["Ball of yarn", "Crinkle tunnel", "Scratching post"])
        // The same op id for a different drop is refused.
        expectError(try board.drop(token, list: "cat-2", row: 0, version: version, op: op), 422)
        // A second drop in the same session: the session has ended.
        expectError(try board.drop(token, list: "cat-2", row: 0), 409)
    }

    @Test func oversizedBodiesAre413BeforeAnythingIsRead() async throws {
        let board = try await TestBoard()
        let huge = String(repeating: "x", count: 40 * 1024)
        let response = board.request(.post, "/api/sessions", json: "{\"token\":\"\(huge)\"}")
        #expect(response.status.code == 413)
    }

    @Test func aStaleViewIsRebasedByItemIdNotByIndex() async throws {
        let board = try await TestBoard()
        let cat2 = try board.ids("cat-2")   // Laser pointer, Bell ball
        let stale = try board.store.version()
        // Someone else puts a toy at the top of cat-2: every index shifts by one.
        let other = try board.begin("cat-3", [try board.ids("cat-3")[0]])
        _ = try board.drop(other, list: "cat-2", row: 0, fraction: 0.1)
        // Our view still shows Bell ball at row 1; we drop above it.
        let toy = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [toy])
        let (status, _) = try board.drop(token, list: "cat-2", row: 1, fraction: 0.1, item: cat2[1], version: stale)
        #expect(status == 200)
        #expect(try board.titles("cat-2") == ["Crinkle tunnel", "Laser pointer", "Ball of yarn", "Bell ball"])
        // A row that left the list cannot be rebased: 409.
        let gone = try board.begin("cat-2", [cat2[0]])
        _ = try board.drop(gone, list: "cat-3", row: nil)
        let late = try board.begin("cat-1", [try board.ids("cat-1")[0]])
        #expect(try board.drop(late, list: "cat-2", row: 0, item: cat2[0], version: stale).status == 409)
    }
}
