@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// A board's page and `/api/board` are rendered once per version and shared by every viewer;
/// each viewer's CSRF token and fresh operation ids are filled in after the cache.
@Suite struct RenderCacheRouteTests {
    @Test func viewersOfOneVersionShareOneRenderEachWithTheirOwnTokenAndOps() async throws {
        let board = try await TestBoard()
        let other = TestBoard.token()
        let first = TestBoard.text(board.request(.get, "/boards/demo"))
        let second = TestBoard.text(board.request(.get, "/boards/demo", cookie: other))
        #expect(board.service.renderCache.renders == 1)
        #expect(first.contains(#"<meta name="csrf-token" content="\#(board.csrf)">"#) && first.contains(#"name="csrf" value="\#(board.csrf)""#))
        #expect(second.contains(#"<meta name="csrf-token" content="\#(other)">"#) && second.contains(#"name="csrf" value="\#(other)""#))
        #expect(!first.contains(other) && !second.contains(board.csrf))
        #expect(!first.contains("@&gt;") && !second.contains("@&gt;"))   // no marker is left
        // Every form of every page gets an operation id of its own (a plain form's op is taken once).
        let ops = Self.ops(first) + Self.ops(second)
        #expect(ops.count > 10 && Set(ops).count == ops.count)

        let api = TestBoard.text(board.request(.get, "/boards/demo/api/board", cookie: other))
        let again = TestBoard.text(board.request(.get, "/boards/demo/api/board"))
        #expect(board.service.renderCache.renders == 2)
        #expect(api.contains(#"value=\"\#(other)\""#) && !api.contains(board.csrf))
        #expect(again.contains(#"value=\"\#(board.csrf)\""#) && !again.contains(other))
        #expect(Set(Self.ops(api)).isDisjoint(with: Self.ops(again)))
    }

    @Test func aChangeRendersThePageAndTheBoardAPIAgain() async throws {
        let board = try await TestBoard()
        let version = try board.store.version()
        let item = try #require(try board.store.rows(in: "cat-1").first)
        _ = board.request(.get, "/boards/demo")
        _ = board.request(.get, "/boards/demo/api/board")
        #expect(board.service.renderCache.renders == 2)

        let renamed = board.form("/boards/demo/items/rename", ["item": item.id, "title": "Feather wand & bell", "op": "rename-once"])
        #expect(renamed.status.code == 303)
        #expect(try board.store.version() == version + 1)

        let page = TestBoard.text(board.request(.get, "/boards/demo"))
        #expect(page.contains(#"data-version="\#(version + 1)""#) && page.contains("Feather wand &amp; bell"))
        let api = TestBoard.json(board.request(.get, "/boards/demo/api/board"))
        #expect(api["version"] as? Int == version + 1)
        let lists = try #require(api["lists"] as? [[String: Any]])
        #expect(lists.contains { ($0["html"] as? String)?.contains("Feather wand &amp; bell") == true })
        #expect(board.service.renderCache.renders == 4)
        _ = board.request(.get, "/boards/demo")
        #expect(board.service.renderCache.renders == 4)
    }

    @Test func aDeletedBoardsBodiesAreForgotten() async throws {
        let board = try await TestBoard()
        let location = try #require(board.form("/boards", ["title": "Short-lived", "op": "create-short-lived"]).headers["Location"])
        #expect(board.request(.get, location).status.code == 200)
        #expect(board.request(.get, location + "/api/board").status.code == 200)
        #expect(board.service.renderCache.count == 2)

        #expect(board.form(location + "/delete", ["op": "delete-short-lived", "confirmed": "yes"]).status.code == 303)
        #expect(board.service.renderCache.count == 0)
        #expect(board.request(.get, location).status.code == 404)
    }

    @Test func theLeastRecentlyServedBodiesGoFirstBeyondTheCapacity() throws {
        let cache = RenderCache(capacity: 2)
        var renders = 0
        func serve(_ board: String) throws {
            _ = try cache.body(board: board, .page(.owner), version: 1, csrf: "token") {
                renders += 1
                return ("<p>\(board)</p>", 1)
            }
        }
        try serve("a")
        try serve("b")
        try serve("a")   // from the cache: "a" is now the more recently served
        try serve("c")   // over the capacity: "b" goes
        #expect(renders == 3 && cache.count == 2)
        try serve("a")
        #expect(renders == 3)
        try serve("b")   // rendered again
        #expect(renders == 4 && cache.count == 2)
    }

    static func ops(_ text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"name=\\?"op\\?" value=\\?"([^"\\]+)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }
}
