@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// The minimal reproducers of what the fuzzer and the chaos test found, each stating the behaviour
/// the design asks for. All were defects of the server before the hardening; they stay as tests.
@Suite struct FuzzFindingsTests {
    @Test func itemsThatDifferOnlyAfterANULAreRefusedWithoutTrapping() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let (status, json) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [toy, toy + "\u{0}x"]])
        #expect((400..<500).contains(status), "\(json)")
    }

    /// The root of the trap above, without it: an id with a NUL is taken for the id before the NUL.
    @Test func anItemIDWithANULIsRefusedNotTakenForItsPrefix() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let (status, json) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [toy + "\u{0}junk"]])
        #expect((400..<500).contains(status), "\(json)")
    }

    /// Found by the edit routes' fuzzing: a NUL in a form field was stored (a checklist item titled
    /// "Fix\0"), and answers then showed it. Forms refuse it, as JSON bodies do, and store nothing.
    @Test func aFormFieldWithANULIsRefusedAndStoresNothing() async throws {
        let board = try await TestBoard()
        let card = try board.ids("cat-1")[0]
        let version = try board.store.version()
        for (path, field) in [("/boards/demo/cards/\(card)/checks", "title"), ("/boards/demo/labels", "name"), ("/boards/demo/cards/\(card)", "description")] {
            let response = board.form(path, pairs: [(field, "Fix\u{0}the gate"), ("color", "green")])
            #expect(response.status.code == 400, "\(path)")
            #expect(TestBoard.text(response).contains("NUL"))
        }
        #expect(try board.store.version() == version)
    }

    @Test func aDropOfARowOntoItsOwnPlaceAnswersTheVersionTheStoreHas() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [toy])
        let before = try board.store.version()
        let (status, json) = try board.drop(token, list: "cat-1", row: 0, fraction: 0.2, item: toy)
        #expect(status == 200)
        #expect(try board.ids("cat-1")[0] == toy)
        let after = try board.store.version()
        #expect(json["version"] as? Int == after)
        #expect((json["changes"] as? [Any])?.isEmpty == true || after == before + 1)
    }

    @Test func anUploadNamedTwiceInOneDropIsRefusedAndLeavesNoFile() async throws {
        let board = try await TestBoard()
        let token = TestBoard.token()
        #expect(try board.post("/api/sessions/external", ["token": token, "types": [String](), "files": ["image/png"]]).status == 201)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        let upload = board.request(.post, "/api/sessions/\(token)/files", headers: ["Content-Type": "image/png"], body: png)
        let file = try #require(TestBoard.json(upload)["file"] as? String)
        let (status, json) = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                            "target": ["zone": "image-well"], "files": [file, file]])
        let stored = try FileManager.default.contentsOfDirectory(atPath: board.directory.appendingPathComponent("images").path).filter { $0 != "uploads" }
        // The drop the browser would send next, naming the upload once.
        let again = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                   "target": ["zone": "image-well"], "files": [file]])
        #expect((400..<500).contains(status), "\(json)")
        #expect(stored.isEmpty, "a refused drop left \(stored) in the images folder")
        #expect(again.status == 200, "the upload is gone: \(again.json)")
    }

    @Test func aPersonFromOutsideThatIsNotAPersonIsA422() async throws {
        let board = try await TestBoard()
        for data in ["not json", "[]", #"{"name":1}"#] {
            let token = TestBoard.token()
            #expect(try board.post("/api/sessions/external", ["token": token, "types": ["application/x-dragboard-person+json"], "files": [String]()]).status == 201)
            let (status, json) = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                                "target": ["list": "people"], "data": [["application/x-dragboard-person+json", data]]])
            #expect(status == 422, "\(data): \(json)")
        }
    }

    @Test func textFromOutsideWithANULIsStoredAsTheAnswerShowsIt() async throws {
        let board = try await TestBoard()
        let token = TestBoard.token()
        #expect(try board.post("/api/sessions/external", ["token": token, "types": ["text/plain"], "files": [String]()]).status == 201)
        let (status, json) = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                            "target": ["list": "cat-1"], "data": [["text/plain", "Ab\u{0}cd"]]])
        let titles = try board.titles("cat-1")
        // Refused, or stored exactly as answered: never one thing stored and another shown.
        let message = json["message"] as? String ?? ""
        #expect(status != 200 || titles.contains { message.contains($0) && $0.contains("cd") }, "stored \(titles), answered \(message)")
    }
}

extension TestBoard {
    /// A request with this board's cookie and CSRF token and a raw body.
    func request(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: [UInt8]) -> Response {
        var headers = headers
        headers["Cookie"] = "\(RequestGuard.cookieName)=\(csrf)"
        headers[RequestGuard.headerName] = csrf
        return router.respond(to: Request(method: method, path: path, headers: headers, body: body))
    }
}
