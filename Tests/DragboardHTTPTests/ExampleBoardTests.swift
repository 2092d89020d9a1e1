import DragboardTesting
import MicroHTTPTesting

@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP
@testable import dragboard_example

/// `Examples/dragboard-example` declares its own kinds with the public API; these tests drive
/// that very code (imported from the executable) through the kit's routes, and check that the
/// README shows it word for word.
@Suite struct ExampleBoardTests {
    static let source = TestBoard.root.appendingPathComponent("Examples/dragboard-example/main.swift")

    @Test func theReadmeShowsTheExampleVerbatim() throws {
        let text = try String(contentsOf: Self.source, encoding: .utf8)
        let begin = try #require(text.range(of: "// EXAMPLE-BEGIN\n"))
        let end = try #require(text.range(of: "// EXAMPLE-END\n"))
        let kinds = String(text[begin.upperBound..<end.lowerBound])
        let serving = String(text[end.upperBound...]).trimmingCharacters(in: .newlines)
        let readme = try String(contentsOf: TestBoard.root.appendingPathComponent("docs/kit.md"), encoding: .utf8)
        #expect(readme.contains(kinds), "README.md must show the kinds of Examples/dragboard-example/main.swift verbatim")
        #expect(readme.contains(serving), "README.md must show how Examples/dragboard-example/main.swift serves the board verbatim")
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count < 100, "the example stays under 100 lines")
    }

    @Test func theExampleBoardIsSeededAndRendered() async throws {
        let board = try await TestBoard(kit: .todo, transport: .live)
        defer { board.remove() }
        #expect(try board.titles("todo") == ["Write a delegate", "Mount the routes"])
        let page = try board.get("/boards/demo")
        #expect(page.contains(#"data-list="todo""#) && page.contains(#"data-list="done""#))
        #expect(page.contains(#"aria-label="Lists""#) && !page.contains("data-zone"))
    }

    @Test func aToDoMovesToDoneButIsNeverCopiedThere() async throws {
        let board = try await TestBoard(kit: .todo, transport: .live)
        defer { board.remove() }
        let first = try board.service.store.rows(in: "todo")[0].id
        let copied = try board.move([first], of: "todo", to: "done", row: nil, copy: true)
        #expect(copied.status == 200 && copied.json["operation"] as? String == "forbidden")
        #expect(copied.json["reason"] as? String == "Done only takes moves")
        #expect(try board.titles("done").isEmpty)

        let moved = try board.move([first], of: "todo", to: "done", row: nil)
        #expect(moved.status == 200 && moved.json["operation"] as? String == "move")
        #expect(moved.json["message"] as? String == "Moved Write a delegate from To do to Done.")
        #expect(try board.titles("todo") == ["Mount the routes"])
        #expect(try board.titles("done") == ["Write a delegate"])
    }

    @Test func textFromAnotherAppBecomesAToDoButNeverADoneItem() async throws {
        let board = try await TestBoard(kit: .todo, transport: .live)
        defer { board.remove() }
        let done = try board.dropText("Buy milk", on: "done")
        #expect(done.json["operation"] as? String == "forbidden" && done.json["reason"] as? String == "Done only takes moves")
        let todo = try board.dropText("Buy\nmilk", on: "todo")
        #expect(todo.status == 200 && todo.json["operation"] as? String == "copy")
        #expect(try board.titles("todo") == ["Write a delegate", "Mount the routes", "Buy milk"])
        #expect(try board.service.store.rows(in: "todo").last?.kind == "text")
        #expect(try board.titles("done").isEmpty)
    }

    @Test func aMoveReachesAViewersLiveStreamAsOneChange() async throws {
        let board = try await TestBoard(kit: .todo, transport: .live)
        defer { board.remove() }
        let viewer = try board.app.events(board: "demo")
        let hello = try viewer.next()
        let version = try board.service.store.version()
        #expect(hello.name == "hello" && hello.json?["version"] as? Int == version)

        let first = try board.service.store.rows(in: "todo")[0].id
        let drag = try board.app.drag([first], from: "todo")
        #expect(try drag.hover(list: "done").json?["handled"] as? Bool == true)
        let drop = try drag.drop(on: "done", row: nil)
        #expect(drop.json?["operation"] as? String == "move")
        #expect(try drag.end().status == 200)

        let change = try viewer.next(named: "changes")
        #expect(change.json?["version"] as? Int == drop.json?["version"] as? Int)
        let changes = try #require(change.json?["changes"] as? [[String: Any]])
        #expect(changes.contains { $0["item"] as? String == first && $0["list"] as? String == "done" })
    }
}
