@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Long lists are windowed: a page renders the first rows of each list and container, the rest
/// come from `GET /boards/:board/api/lists/:list/rows` after a cursor, or from a wider page
/// without JavaScript; every change of rows says each list's count.
@Suite struct WindowingRouteTests {
    /// A showcase board whose first cat holds `rows` toys and whose green box holds `inBox`, with a window of 5.
    static func board(rows: Int = 23, inBox: Int = 8) async throws -> TestBoard {
        let board = try await TestBoard(rowWindow: 5)
        _ = try board.store.perform(operationID: "seed-long", fingerprint: "seed") { tx in
            let cats = try tx.rowCount(in: "cat-1")
            try tx.insert((0..<(rows - cats)).map { NewItem(kind: "toy", title: "Toy \($0)") }, at: Placement(listID: "cat-1"))
            let box = try tx.item("box-green")
            let held = try tx.rows(in: box.listID, container: box.id).count
            try tx.insert((0..<(inBox - held)).map { NewItem(kind: "toy", title: "Boxed \($0)") }, at: Placement(listID: box.listID, containerID: box.id))
            return "{}"
        }
        return board
    }

    func get(_ board: TestBoard, _ path: String, _ query: [String: String] = [:]) -> Response {
        board.router.respond(to: Request(method: .get, path: path, query: query, headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"]))
    }

    /// The markup of the element that opens with `marker`, up to `end`.
    static func section(_ page: String, from marker: String, to end: String) throws -> String {
        let start = try #require(page.range(of: marker))
        let stop = try #require(page.range(of: end, range: start.upperBound..<page.endIndex))
        return String(page[start.lowerBound..<stop.upperBound])
    }

    static func itemIDs(_ html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"<li class="row[^"]*" data-item="([^"]+)""#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { Range($0.range(at: 1), in: html).map { String(html[$0]) } }
    }

    @Test func thePageRendersTheFirstRowsOfEachListAndSaysTheTotal() async throws {
        let board = try await Self.board()
        let page = TestBoard.text(get(board, "/boards/demo"))
        let cats = try Self.section(page, from: #"data-list="cat-1""#, to: "</section>")
        #expect(cats.contains(#"data-row-count="23""#))
        #expect(Self.itemIDs(cats) == Array(try board.ids("cat-1").prefix(5)))
        #expect(cats.contains(#"<a class="show-more" data-show-more href="?list=cat-1&amp;rows=10#list-cat-1">"#))
        #expect(cats.contains("(5 of 23 shown)"))
        // Only its first rows are offered for renaming too: the page does not grow with the list.
        #expect(cats.components(separatedBy: "<option value=").count - 1 == 5)
        // A container's contents are windowed the same way, with the box's true count.
        let box = try Self.section(page, from: #"data-box="box-green""#, to: "</details>")
        #expect(box.contains(#"data-count="8""#) && box.contains(#"data-list="box-green" data-row-count="8""#))
        #expect(Self.itemIDs(box) == Array(try board.store.contents(of: "box-green").map(\.id).prefix(5)))
        #expect(box.contains("?list=box-green&amp;rows=10"))
        // A list that fits shows every row and no link.
        let people = try Self.section(page, from: #"data-list="people""#, to: "</section>")
        #expect(!people.contains("data-show-more"))
    }

    @Test func showMoreWithoutJavaScriptRendersAWiderWindowOfOneList() async throws {
        let board = try await Self.board()
        let version = try board.store.version()
        let page = TestBoard.text(get(board, "/boards/demo", ["list": "cat-1", "rows": "12"]))
        let cats = try Self.section(page, from: #"data-list="cat-1""#, to: "</section>")
        #expect(Self.itemIDs(cats) == Array(try board.ids("cat-1").prefix(12)))
        #expect(cats.contains("?list=cat-1&amp;rows=17") && cats.contains("(12 of 23 shown)"))
        let all = TestBoard.text(get(board, "/boards/demo", ["list": "cat-1", "rows": "500"]))
        #expect(Self.itemIDs(try Self.section(all, from: #"data-list="cat-1""#, to: "</section>")) == (try board.ids("cat-1")))
        #expect(!(try Self.section(all, from: #"data-list="cat-1""#, to: "</section>")).contains("data-show-more"))
        // The wider page is this viewer's alone: the shared page keeps its window.
        #expect(Self.itemIDs(try Self.section(TestBoard.text(get(board, "/boards/demo")), from: #"data-list="cat-1""#, to: "</section>")).count == 5)
        for query in [["list": "cat-1", "rows": "0"], ["list": "cat-1", "rows": "-3"], ["list": "cat-1", "rows": "many"],
                      ["list": "cat-1"], ["list": "bad id", "rows": "10"], ["list": "cat-1", "rows": "100001"]] {
            let response = get(board, "/boards/demo", query)
            #expect(response.status.code == 400, "\(query)")
            #expect((TestBoard.json(response)["error"] as? [String: Any])?["code"] as? String == "bad_request")
        }
        #expect(try board.store.version() == version)
    }

    @Test func theRowsRouteFollowsACursorToTheEnd() async throws {
        let board = try await Self.board()
        let first = TestBoard.json(get(board, "/boards/demo/api/lists/cat-1/rows"))
        let version = try board.store.version()
        #expect(first["version"] as? Int == version && first["total"] as? Int == 23 && first["count"] as? Int == 5)
        var ids = Self.itemIDs(try #require(first["html"] as? String))
        while let last = ids.last, ids.count < 23 {
            let next = TestBoard.json(get(board, "/boards/demo/api/lists/cat-1/rows", ["after": last, "count": "7"]))
            #expect(next["after"] as? String == last)
            let more = Self.itemIDs(try #require(next["html"] as? String))
            #expect(!more.isEmpty && more.count == next["count"] as? Int)
            ids += more
        }
        #expect(ids == (try board.ids("cat-1")))
        let end = TestBoard.json(get(board, "/boards/demo/api/lists/cat-1/rows", ["after": try #require(ids.last)]))
        #expect(end["count"] as? Int == 0 && end["html"] as? String == "")
        // A container's contents page the same way.
        let contents = try board.store.contents(of: "box-green").map(\.id)
        let boxed = TestBoard.json(get(board, "/boards/demo/api/lists/box-green/rows", ["after": contents[4]]))
        #expect(Self.itemIDs(try #require(boxed["html"] as? String)) == Array(contents[5...]) && boxed["total"] as? Int == 8)
    }

    @Test func badInputIsA4xxThatChangesNothing() async throws {
        let board = try await Self.board()
        let version = try board.store.version()
        let elsewhere = try #require(try board.ids("cat-2").first)
        let cases: [(String, [String: String], Int, String)] = [
            ("/boards/demo/api/lists/nope/rows", [:], 404, "not_found"),
            ("/boards/demo/api/lists/bad%20id/rows", [:], 404, "not_found"),
            ("/boards/nope/api/lists/cat-1/rows", [:], 404, "not_found"),
            ("/boards/demo/api/lists/cat-1/rows", ["after": "no-such-row"], 404, "not_found"),
            ("/boards/demo/api/lists/cat-1/rows", ["after": "bad id"], 404, "not_found"),
            ("/boards/demo/api/lists/cat-1/rows", ["after": elsewhere], 409, "conflict"),
            ("/boards/demo/api/lists/cat-1/rows", ["count": "0"], 400, "bad_request"),
            ("/boards/demo/api/lists/cat-1/rows", ["count": "-1"], 400, "bad_request"),
            ("/boards/demo/api/lists/cat-1/rows", ["count": "1001"], 400, "bad_request"),
            ("/boards/demo/api/lists/cat-1/rows", ["count": "99999999999999999999"], 400, "bad_request"),
            ("/boards/demo/api/lists/cat-1/rows", ["count": "ten"], 400, "bad_request"),
            // A row is not a list, and a box of another board is not one of this board's.
            ("/boards/demo/api/lists/\(elsewhere)/rows", [:], 404, "not_found"),
        ]
        for (path, query, status, code) in cases {
            let response = get(board, path, query)
            #expect(response.status.code == status, "\(path) \(query)")
            #expect((TestBoard.json(response)["error"] as? [String: Any])?["code"] as? String == code, "\(path) \(query)")
        }
        #expect(try board.store.version() == version)
    }

    @Test func everyChangeOfRowsSaysEachListsCountAndAReplaySaysTheSame() async throws {
        let board = try await Self.board()
        let toy = try #require(try board.ids("cat-1").last)
        let token = try board.begin("cat-1", [toy])
        let seen = try board.store.version()
        let (status, json) = try board.drop(token, list: "cat-2", row: 0, version: seen, op: "move-last-toy")
        #expect(status == 200)
        let counts = try #require(json["counts"] as? [String: Int])
        let toysOfTom = try board.ids("cat-2").count
        #expect(counts["cat-1"] == 22 && counts["cat-2"] == toysOfTom && counts["places"] == 5)
        let replay = try board.drop(token, list: "cat-2", row: 0, version: seen, op: "move-last-toy")
        #expect(replay.status == 200)
        #expect(replay.json["counts"] as? [String: Int] == counts)
        // A plain edit says them too.
        let deleted = board.form("/boards/demo/items/delete", ["item": toy, "op": "delete-it"])
        #expect(deleted.status.code == 303)
        let fetched = board.router.respond(to: Request(method: .post, path: "/boards/demo/items/delete",
                                                       headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)", "Content-Type": "application/x-www-form-urlencoded",
                                                                 "Accept": "application/json"],
                                                       body: Array("csrf=\(board.csrf)&op=delete-another&item=\(try #require(try board.ids("cat-1").first))".utf8)))
        #expect((TestBoard.json(fetched)["counts"] as? [String: Int])?["cat-1"] == 21)
    }
}
