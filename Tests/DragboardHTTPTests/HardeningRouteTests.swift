import DragboardTesting

@testable import DragboardStore
import Foundation
import GRDB
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Nothing one client sends can crash the server, desync its viewers or fill its storage.
@Suite struct HardeningRouteTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)

    func message(_ response: (status: Int, json: [String: Any])) -> String {
        ((response.json["error"] as? [String: Any])?["message"] as? String) ?? ""
    }

    func operationRecords(_ board: TestBoard) throws -> Int {
        try board.store.dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM operation") ?? -1 }
    }

    // MARK: ids and text

    @Test func anIDAndTheSameIDWithANULAreRefusedNotATrap() async throws {
        let board = try await TestBoard()
        let id = try board.ids("cat-1")[0]
        // Before the grammar, SQLite read both as one row and the session's dictionary trapped.
        let response = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [id, id + "\u{0}x"]])
        #expect(response.status == 400)
        #expect(message(response).contains("items[1]"))
        #expect(board.service.sessions.count == 0)
        // The server is still there, and a correct drag still begins.
        _ = try board.begin("cat-1", [id])
    }

    @Test func idsFollowAStrictGrammarEverywhere() async throws {
        let board = try await TestBoard()
        let id = try board.ids("cat-1")[0]
        for list in ["cat-1\u{0}", "cat-1\n", String(repeating: "a", count: 65), "", "../cat-1", "cat 1", "cät"] {
            #expect(try board.post("/api/sessions", ["token": TestBoard.token(), "list": list, "items": [id]]).status == 400, "list \(list.debugDescription)")
        }
        #expect(try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": Array(repeating: id, count: 501)]).status == 400)
        let token = try board.begin("cat-1", [id])
        #expect(try board.post("/api/sessions/\(token)/target", ["target": ["list": "cat-2\u{7}"]]).status == 400)
        #expect(try board.post("/api/sessions/\(token)/target", ["target": ["list": "cat-2"], "location": ["row": 0, "item": "x\u{0}"]]).status == 400)
        for op in ["short", "has space in it", "nul\u{0}-in-the-op", String(repeating: "z", count: 65)] {
            let drop = try board.drop(token, list: "cat-2", row: 0, op: op)
            #expect(drop.status == 400 && message(drop).contains("'op'"), "op \(op.debugDescription)")
        }
        #expect(board.request(.get, "/images/x%00y").status.code == 404)
        #expect(board.request(.get, "/images/" + String(repeating: "a", count: 65)).status.code == 404)
    }

    @Test func droppedTextWithNULControlsOrNonCharactersIsRefusedAndStoresNothing() async throws {
        let board = try await TestBoard()
        let before = try board.titles("places")
        for text in ["before\u{0}after", "bell\u{7}", "escape\u{1B}[31m", Self.scalar(0xFFFE), Self.scalar(0xFDD0), "c1\u{85}"] {
            let (token, _) = try external(board, types: ["text/plain"])
            let response = try dropText(board, token, text)
            #expect(response.status == 400, "text \(text.debugDescription)")
            #expect(message(response).contains("'data[0]'"))
        }
        #expect(message(try dropText(board, try external(board, types: ["text/plain"]).token, "a\u{0}b")).contains("NUL"))
        #expect(try board.titles("places") == before)
        // Tabs and line breaks are text.
        let ok = try dropText(board, try external(board, types: ["text/plain"]).token, "Tokyo\tJapan\nEast")
        #expect(ok.status == 200)
    }

    @Test func aPersonFromAnotherAppThatIsNotAPersonIsA422() async throws {
        let board = try await TestBoard()
        let people = try board.ids("people")
        for data in ["not json", "[]", #"{"name":1}"#, #"{"name":"Ann"}"#] {
            let (token, _) = try external(board, types: ["application/x-dragboard-person+json"])
            let response = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                       "target": ["list": "people"], "location": NSNull(),
                                                                       "data": [["application/x-dragboard-person+json", data]]])
            #expect(response.status == 422, "\(data): \(response.json)")
        }
        #expect(try board.ids("people") == people)
    }

    // MARK: versions

    @Test func aDropOntoItsOwnPlaceAnswersTheVersionItSawAndNoChanges() async throws {
        let board = try await TestBoard()
        let ids = try board.ids("cat-1")
        let version = try board.store.version()
        let token = try board.begin("cat-1", [ids[0]])
        let idle = try board.drop(token, list: "cat-1", row: 0, fraction: 0.2)
        #expect(idle.status == 200)
        #expect(idle.json["version"] as? Int == version)
        #expect((idle.json["changes"] as? [Any])?.isEmpty == true)
        #expect(try board.store.version() == version && board.ids("cat-1") == ids)
        // The next real change is the next version, so no viewer can skip it.
        let real = try board.drop(try board.begin("cat-1", [ids[0]]), list: "cat-2", row: 0)
        #expect(real.json["version"] as? Int == version + 1)
        #expect(try board.store.version() == version + 1)
    }

    @Test func draggedItemsMovedBySomeoneElseAreCaughtEvenWhenTheClientClaimsTheCurrentVersion() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let stale = try board.begin("cat-1", [toy])
        #expect(try board.drop(try board.begin("cat-1", [toy]), list: "cat-2", row: 0).status == 200)
        let ids = (try board.ids("cat-2"), try board.ids("cat-3"))
        let response = try board.drop(stale, list: "cat-3", row: 0, version: try board.store.version())
        #expect(response.status == 409)
        #expect(try (board.ids("cat-2"), board.ids("cat-3")) == ids)
    }

    // MARK: storage

    @Test func refusedDropsStoreNothingAndRecordsHoldAHashAndNoHTML() async throws {
        let board = try await TestBoard()
        let big = String(repeating: "x", count: 200 * 1024)
        for _ in 0..<20 {
            // People take only people: text dropped there is refused.
            let (token, _) = try external(board, types: ["text/plain"])
            let response = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                       "target": ["list": "people"], "location": NSNull(), "data": [["text/plain", big]]])
            #expect(response.status < 500 && (response.json["changes"] as? [Any] ?? []).isEmpty)
        }
        #expect(try operationRecords(board) == 0)
        // A real drop is recorded as a digest and an answer without HTML; its replay has HTML.
        let toy = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [toy])
        let op = UUID().uuidString
        let seen = try board.store.version()
        _ = try board.drop(token, list: "cat-2", row: 0, version: seen, op: op)
        let record = try board.store.dbPool.read { try Row.fetchOne($0, sql: "SELECT fingerprint, response FROM operation") }
        let fingerprint: String = try #require(record?[0])
        let stored: String = try #require(record?[1])
        #expect(fingerprint.count == 64 && fingerprint.allSatisfy(\.isHexDigit))
        #expect(!stored.contains("html") && stored.contains(toy))
        let replay = try board.drop(token, list: "cat-2", row: 0, version: seen, op: op)
        #expect(replay.status == 200)
        let html = (replay.json["changes"] as? [[String: Any]])?.compactMap { $0["html"] as? String } ?? []
        #expect(html.contains { $0.contains("data-item=\"\(toy)\"") })
    }

    @Test func uploadsPerSessionAreBoundedByTheFilesItDeclared() async throws {
        let board = try await TestBoard()
        let (token, _) = try external(board, types: [], files: ["image/png"])
        let first = try upload(board, token, Self.png)
        #expect(first.id != nil)
        let second = try upload(board, token, Self.png)
        #expect(second.error?.status.code == 413)
        #expect(second.error?.message.contains("declared 1 file") == true)
        // A refused upload gives its slot back.
        let (other, _) = try external(board, types: [], files: ["image/png"])
        #expect(try upload(board, other, Array("not an image at all".utf8)).error?.status.code == 415)
        #expect(try upload(board, other, Self.png).id != nil)
    }

    @Test func theImageWellHasACountQuota() async throws {
        let board = try await TestBoard(limits: .init(maximumImages: 1))
        for attempt in 0..<2 {
            let (token, _) = try external(board, types: [], files: ["image/png"])
            let uploaded = try upload(board, token, Self.png)
            if attempt == 0 {
                let drop = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                                      "target": ["zone": "image-well"], "files": [try #require(uploaded.id)]])
                #expect(drop.status == 200)
            } else {
                #expect(uploaded.error?.status.code == 413)
                #expect(uploaded.error?.message.contains("at most 1 images") == true)
            }
        }
        #expect(try board.store.read { try $0.images(in: "image-well") }.count == 1)
    }

    @Test func theImageWellsByteQuotaCountsFilesWaitingInDragsBeforeAByteIsStored() async throws {
        let board = try await TestBoard(limits: .init(maximumImageBytes: 300))
        let (token, _) = try external(board, types: [], files: ["image/png", "image/png"])
        let a = try #require(try upload(board, token, Self.png).id)
        // 208 bytes wait in the drag: another 208 would pass the 300 the board may hold.
        let refused = try upload(board, token, Self.png)
        #expect(refused.error?.status.code == 413)
        #expect(refused.error?.message.contains("at most 0 KB of images") == true)
        let drop = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                              "target": ["zone": "image-well"], "files": [a, NSNull()]])
        #expect(drop.status == 200)
        #expect(try board.store.read { try $0.images(in: "image-well") }.count == 1)
    }

    @Test func theSameUploadTwiceInOneDropIsA400AndLeavesNoFile() async throws {
        let board = try await TestBoard()
        let (token, _) = try external(board, types: [], files: ["image/png", "image/png"])
        let id = try #require(try upload(board, token, Self.png).id)
        let drop = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(),
                                                              "target": ["zone": "image-well"], "files": [id, id]])
        #expect(drop.status == 400)
        #expect(try storedImageFiles(board).isEmpty)
    }

    @Test func liveDragSessionsAreCappedPerBrowserAndInTotal() async throws {
        let board = try await TestBoard(limits: .init(sessionsPerClient: 2, sessions: 3))
        let id = try board.ids("cat-1")[0]
        _ = try board.begin("cat-1", [id])
        _ = try board.begin("cat-1", [id])
        let third = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [id]])
        #expect(third.status == 429 && message(third).contains("2 unfinished drags"))
        // Said when a slot frees (the oldest drag's lifetime ends), never "reload", which would only add drags.
        #expect(message(third).contains("the oldest ends within 10 minutes") && !message(third).contains("reload"))
        let again = board.request(.post, "/api/sessions", json: #"{"token": "\#(TestBoard.token())", "list": "cat-1", "items": ["\#(id)"]}"#)
        #expect(again.status == .tooManyRequests)
        #expect(again.headers["Retry-After"].flatMap(Int.init).map { (590...600).contains($0) } == true)
        let other = "abcdefabcdefabcdefabcdefabcdef00"
        #expect(try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [id]], csrf: other, cookie: other).status == 201)
        let fourth = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [id]], csrf: other, cookie: other)
        #expect(fourth.status == 429 && message(fourth).contains("3 drags in progress"))
        #expect(board.service.sessions.count == 3)
    }

    // MARK: helpers

    /// Swift string literals refuse non-characters; the wire does not.
    static func scalar(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

    func external(_ board: TestBoard, types: [String], files: [String] = []) throws -> (token: String, json: [String: Any]) {
        let token = TestBoard.token()
        let (status, json) = try board.post("/api/sessions/external", ["token": token, "types": types, "files": files])
        guard status == 201 else { throw TestFailure("external begin: \(status) \(json)") }
        return (token, json)
    }

    func dropText(_ board: TestBoard, _ token: String, _ text: String) throws -> (status: Int, json: [String: Any]) {
        try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(), "target": ["list": "places"],
                                                        "location": NSNull(), "data": [["text/plain", text]]])
    }

    func upload(_ board: TestBoard, _ token: String, _ bytes: [UInt8]) throws -> (id: String?, error: HTTPError?) {
        do {
            // With its length, as a browser's fetch sends a file.
            let sink = try board.service.uploadSink(token, request: Request(method: .post, path: "/", headers: ["Content-Length": "\(bytes.count)"]), owner: board.csrf)
            do {
                try bytes.withUnsafeBytes { try sink.write($0) }
                return (TestBoard.json(try sink.finish())["file"] as? String, nil)
            } catch {
                sink.abort()
                throw error
            }
        } catch {
            guard let mapped = DragboardError.from(error) as? HTTPError else { throw error }
            return (nil, mapped)
        }
    }

    func storedImageFiles(_ board: TestBoard) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: board.service.imagesDirectory.path).filter { $0 != "uploads" }
    }
}
