import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Import (the index's form, or a JSON body) and export (`export.json`, `export.csv`): a Trello export
/// becomes a board; an export imported again is the same board; a hostile file is refused with words
/// and creates nothing.
@Suite struct TransferRouteTests {
    static let boundary = "----dragboard-test-boundary"
    /// The hand-written Trello export (Tests/fixtures/trello-board.json).
    static let trello: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/trello-board.json")
        return Array((try? Data(contentsOf: url)) ?? Data())
    }()

    /// The index's import form as a browser sends it.
    func form(_ board: TestBoard, file: [UInt8], op: String = UUID().uuidString, accept: String = "text/html") -> Response {
        var body = Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(board.csrf)\r\n".utf8)
        body += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\n\(op)\r\n".utf8)
        body += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"board.json\"\r\nContent-Type: application/json\r\n\r\n".utf8)
        body += file + Array("\r\n--\(Self.boundary)--\r\n".utf8)
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)", "Content-Type": "multipart/form-data; boundary=\(Self.boundary)", "Accept": accept]
        return board.router.respond(to: Request(method: .post, path: "/boards/import", headers: headers, body: body))
    }

    func importJSON(_ board: TestBoard, _ file: [UInt8]) -> Response {
        let headers: HTTPHeaders = ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)", RequestGuard.headerName: board.csrf, "Content-Type": "application/json"]
        return board.router.respond(to: Request(method: .post, path: "/boards/import", headers: headers, body: file))
    }

    func export(_ board: TestBoard, _ id: String) throws -> BoardExport {
        let response = board.request(.get, "/boards/\(id)/export.json")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Disposition"]?.hasPrefix("attachment; filename=") == true)
        return try JSONDecoder().decode(BoardExport.self, from: Data(TestBoard.text(response).utf8))
    }

    @Test func theIndexFormImportsATrelloExportAndTheBoardSaysWhatWasImported() async throws {
        let board = try await TestBoard()
        let op = UUID().uuidString
        let response = form(board, file: Self.trello, op: op)
        #expect(response.status.code == 303)
        let location = try #require(response.headers["Location"])
        #expect(location.hasSuffix("?done=\(op)"))
        let id = String(location.dropFirst("/boards/".count).prefix { $0 != "?" })
        let page = TestBoard.text(board.router.respond(to: Request(method: .get, path: "/boards/\(id)", query: ["done": op],
                                                                   headers: ["Cookie": "\(RequestGuard.cookieName)=\(board.csrf)"])))
        #expect(page.contains("Imported 3 lists and 4 cards into “Garden — spring”; skipped 1 archived card"))
        let made = try export(board, id)
        #expect(made.board.title == "Garden — spring" && made.board.color == PaletteColor.green)
        #expect(made.lists.map(\.title) == ["To do", "Doing", "Done"])
        #expect(made.lists[0].cards.map(\.title) == ["Fix the shed roof", "Buy seeds"])
        #expect(made.lists[0].cards[1].details?.checklist.map(\.title) == ["Tomatoes", "Basil"])
        // The same form sent again (a retry) makes no second board.
        let before = try board.store.boards().count
        #expect(form(board, file: Self.trello, op: op).headers["Location"] == location)
        #expect(try board.store.boards().count == before)
    }

    @Test func anExportImportedAgainIsTheSameBoard() async throws {
        let board = try await TestBoard()
        // Give the demo board labels, a colour and a card with details first.
        #expect(board.form("/boards/demo/labels", ["name": "Urgent", "color": "red"]).status.code == 303)
        #expect(board.form("/boards/demo/color", ["color": "purple"]).status.code == 303)
        let label = try #require(try export(board, "demo").board.labels.first).id
        let card = try board.ids("cat-1")[0]
        #expect(board.form("/boards/demo/cards/\(card)", pairs: [("title", "Yarn"), ("description", "Soft\nand red"), ("due", "2027-01-02"), ("label", label)]).status.code == 303)
        let original = try export(board, "demo")
        let response = importJSON(board, Array(TestBoard.text(board.request(.get, "/boards/demo/export.json")).utf8))
        #expect(response.status == .created)
        let answer = TestBoard.json(response)
        let id = String(try #require(answer["location"] as? String).dropFirst("/boards/".count))
        let copy = try export(board, id)
        #expect(copy.board.title == original.board.title && copy.board.color == PaletteColor.purple && copy.board.labels == original.board.labels)
        func shape(_ cards: [BoardExport.Card]) -> [String] { cards.map { "\($0.kind)|\($0.title)|\($0.payload)|\(shape($0.contents ?? []))" } }
        #expect(copy.lists.map(\.title) == original.lists.map(\.title))
        #expect(copy.lists.map(\.kind) == original.lists.map(\.kind))
        #expect(copy.lists.map { shape($0.cards) } == original.lists.map { shape($0.cards) })
        #expect(copy.lists.flatMap(\.cards).contains { $0.title == "Yarn" && $0.details?.due == "2027-01-02" && $0.details?.labels == [label] })
    }

    @Test func cardsExportAsCSVWithFormulasDefused() async throws {
        let board = try await TestBoard()
        let card = try board.ids("cat-1")[0]
        #expect(board.form("/boards/demo/items/rename", ["item": card, "title": "=HYPERLINK(\"x\")"]).status.code == 303)
        let response = board.request(.get, "/boards/demo/export.csv")
        #expect(response.headers["Content-Type"] == "text/csv; charset=utf-8")
        let lines = TestBoard.text(response).components(separatedBy: "\r\n")
        #expect(lines[0] == "list,title,description,due,labels,checklist,kind")
        #expect(lines.contains { $0.contains(#"'=HYPERLINK(""x"")"#) })
    }

    @Test(arguments: [
        (#"{"lists": "nope"}"#, 422),
        ("{" + String(repeating: "[", count: 10_000), 422),
        (#"{"format": "dragboard-board", "version": 99, "exportedAt": "", "board": {"id": "x", "title": "x", "color": "red", "labels": []}, "lists": []}"#, 422),
        (#"{"lists": [{"id": "l", "name": "L", "pos": 1}], "cards": [{"id": "c", "name": "C", "idList": "l", "idLabels": [7]}]}"#, 422),
    ])
    func aHostileFileIsRefusedAndCreatesNothing(file: String, status: Int) async throws {
        let board = try await TestBoard()
        let before = try board.store.boards().count
        let response = importJSON(board, Array(file.utf8))
        #expect(response.status.code == status)
        #expect(TestBoard.json(response)["error"] != nil)
        let page = form(board, file: Array(file.utf8))
        #expect(page.status.code == status)
        #expect(TestBoard.text(page).contains("<a href=\"/\""))
        #expect(try board.store.boards().count == before)
    }

    @Test func aFileOverFiftyMegabytesIsRefusedBeforeItIsRead() async throws {
        let board = try await TestBoard()
        let response = importJSON(board, Array(repeating: UInt8(ascii: " "), count: BoardImport.maximumBytes + 70 * 1024))
        #expect(response.status == .payloadTooLarge)
    }

    @Test func aListOfAKindThisServerDoesNotHaveIsRefusedWholly() async throws {
        let board = try await TestBoard()
        var export = try JSONDecoder().decode(BoardExport.self, from: Data(TestBoard.text(board.request(.get, "/boards/demo/export.json")).utf8))
        export.lists[export.lists.count - 1].kind = "spaceships"
        let before = try board.store.boards().count
        let response = importJSON(board, Array(try JSONEncoder().encode(export)))
        #expect(response.status.code == 400)
        #expect(TestBoard.text(response).contains("a kind this server does not have"))
        #expect(try board.store.boards().count == before)
    }

    @Test func importsBeyondTheServersSlotsAreRefusedFromTheirHeadsNotBuffered() async throws {
        let board = try await TestBoard()
        let slots = board.service.importSlots
        for _ in 0..<slots.limit { try slots.take() }
        let refused = importJSON(board, Self.trello)
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "5")
        #expect(TestBoard.text(refused).contains("already importing"))
        for _ in 0..<slots.limit { slots.give() }
        #expect(importJSON(board, Self.trello).status == .created)
        #expect(importJSON(board, Self.trello).status == .created)   // the slot came back
    }
}
