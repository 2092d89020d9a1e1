import DragAndDrop
import DragboardTesting
@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP
@testable import Showcase

/// Drops from other apps: promises of the visible types, data only at the drop, copies only.
@Suite struct ExternalDropRouteTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 200)

    func external(_ board: TestBoard, types: [String], files: [String] = []) throws -> (token: String, table: [[String: Any]]) {
        let token = TestBoard.token()
        let (status, json) = try board.post("/api/sessions/external", ["token": token, "types": types, "files": files])
        guard status == 201 else { throw TestFailure("external begin: \(status) \(json)") }
        return (token, ((json["table"] as? [String: Any])?["targets"] as? [[String: Any]]) ?? [])
    }

    func handled(_ table: [[String: Any]], _ key: String, _ id: String) -> Bool {
        table.first { ($0["target"] as? [String: Any])?[key] as? String == id }?["handled"] as? Bool ?? false
    }

    func dropData(_ board: TestBoard, _ token: String, target: [String: String], data: [[String]], files: [String] = []) throws -> (status: Int, json: [String: Any]) {
        try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(), "target": target,
                                                        "location": NSNull(), "data": data, "files": files])
    }

    /// Streams bytes through the upload sink in chunks, as the server does.
    func upload(_ board: TestBoard, _ token: String, _ bytes: [UInt8], chunk: Int = 4096) throws -> (id: String?, error: HTTPError?) {
        do {
            let sink = try board.service.uploadSink(token, request: Request(method: .post, path: "/"), owner: board.csrf)
            do {
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try sink.write($0) }
                }
                return (TestBoard.json(try sink.finish())["file"] as? String, nil)
            } catch {
                sink.abort()
                throw error
            }
        } catch let error as HTTPError { return (nil, error) }
    }

    @Test func textFromAnotherAppIsCopiedIntoPlacesAndNeverMoved() async throws {
        let board = try await TestBoard()
        let (token, table) = try external(board, types: ["text/plain", "text/html"])
        #expect(handled(table, "list", "places"))
        #expect(!handled(table, "list", "people"))
        // The well hears of text only to say what it takes instead.
        let well = table.first { ($0["target"] as? [String: String])?["zone"] == "image-well" }
        #expect((well?["noRow"] as? [String: Any])?["op"] as? String == "forbidden")
        #expect((well?["noRow"] as? [String: Any])?["reason"] as? String == "Only images go here: PNG, JPEG, GIF or WebP")
        let (status, json) = try dropData(board, token, target: ["list": "places"], data: [["text/plain", "<script>alert(1)</script> Tokyo"], ["text/html", "<b>Tokyo</b>"]])
        #expect(status == 200)
        #expect(json["operation"] as? String == "copy")
        #expect(try board.titles("places").last == "<script>alert(1)</script> Tokyo")
        let html = try #require((json["changes"] as? [[String: Any]])?.last?["html"] as? String)
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Tokyo") && !html.contains("<script>"))
    }

    @Test func htmlAloneIsReducedToTextAndURLsBecomeLinksOnlyForTheWeb() async throws {
        let board = try await TestBoard()
        let html = try external(board, types: ["text/html"])
        _ = try dropData(board, html.token, target: ["list": "places"], data: [["text/html", "<p>Hi <em>there</em></p><script>steal()</script>"]])
        #expect(try board.titles("places").last == "Hi there")
        let link = try external(board, types: ["text/uri-list", "text/plain"])
        _ = try dropData(board, link.token, target: ["list": "places"], data: [["text/uri-list", "https://example.com/a"], ["text/plain", "https://example.com/a"]])
        let last = try #require(try board.store.rows(in: "places").last)
        #expect(last.kind == "link" && BoardItem(last).url == "https://example.com/a")
        let script = try external(board, types: ["text/uri-list", "text/plain"])
        _ = try dropData(board, script.token, target: ["list": "places"], data: [["text/uri-list", "javascript:alert(1)"], ["text/plain", "hello"]])
        let plain = try #require(try board.store.rows(in: "places").last)
        #expect(plain.kind == "place" && plain.title == "hello")
    }

    @Test func aPersonFromAnotherOriginBecomesAPerson() async throws {
        let board = try await TestBoard()
        let (token, table) = try external(board, types: ["application/x-dragboard-person+json", "text/plain"])
        #expect(handled(table, "list", "people"))
        let (_, json) = try dropData(board, token, target: ["list": "people"], data: [["application/x-dragboard-person+json", #"{"name":"Linus Torvalds","age":55}"#], ["text/plain", "Linus Torvalds (55)"]])
        #expect(json["operation"] as? String == "copy")
        let person = try #require(try board.store.rows(in: "people").last)
        #expect(person.title == "Linus Torvalds" && person.payload.contains("55"))
    }

    @Test func emptyOversizedAndUnknownDropsAreRefusedAndChangeNothing() async throws {
        let board = try await TestBoard()
        let version = try board.store.version()
        let unknown = try external(board, types: ["application/x-unknown"])
        #expect(unknown.table.allSatisfy { $0["handled"] as? Bool == false || ($0["noRow"] as? [String: Any])?["op"] as? String == "forbidden" })
        let empty = try external(board, types: ["text/plain"])
        #expect(try dropData(board, empty.token, target: ["list": "places"], data: []).status == 422)
        let long = try external(board, types: ["text/plain"])
        #expect(try dropData(board, long.token, target: ["list": "places"], data: [["text/plain", String(repeating: "a", count: 600)]]).status == 413)
        let blank = try external(board, types: ["text/plain"])
        #expect(try dropData(board, blank.token, target: ["list": "places"], data: [["text/plain", "  \n "]]).status == 422)
        #expect(try board.store.version() == version)
    }

    @Test func imagesAreCheckedByTheirBytesStoredAndShownInTheWell() async throws {
        let board = try await TestBoard()
        let (token, table) = try external(board, types: [], files: ["image/png"])
        #expect(handled(table, "zone", "image-well"))
        #expect(!handled(table, "zone", "label"))
        let uploaded = try upload(board, token, Self.png)
        let id = try #require(uploaded.id)
        let (status, json) = try dropData(board, token, target: ["zone": "image-well"], data: [], files: [id])
        #expect(status == 200)
        let images = try board.store.read { try $0.images(in: "image-well") }
        #expect(images.count == 1 && images[0].mimeType == "image/png" && images[0].size == Self.png.count)
        let stored = try Data(contentsOf: board.service.imagesDirectory.appendingPathComponent(images[0].id))
        #expect(Array(stored) == Self.png)
        let change = try #require((json["changes"] as? [[String: Any]])?.first)
        #expect(change["kind"] as? String == "zone" && (change["html"] as? String)?.contains("/images/\(images[0].id)") == true)
        let served = board.request(.get, "/images/\(images[0].id)")
        #expect(served.status == .ok && served.headers["Content-Type"] == "image/png")
        #expect(board.request(.get, "/images/../board.sqlite").status.code == 404)
    }

    @Test func aFileLyingAboutItsTypeOrTooLargeLeavesNothingStored() async throws {
        let board = try await TestBoard()
        let version = try board.store.version()
        let (token, _) = try external(board, types: [], files: ["image/png"])
        let fake = try upload(board, token, Array("<svg onload=alert(1)> not a png".utf8))
        #expect(fake.error?.status == .unsupportedMediaType)
        let huge = try upload(board, token, Self.png + Array(repeating: 0, count: BoardService.maximumImageSize), chunk: 1 << 20)
        #expect(huge.error?.status == .payloadTooLarge)
        let uploads = board.service.imagesDirectory.appendingPathComponent("uploads/\(token)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty)
        // A drop naming a file that was never uploaded is refused too.
        #expect(try dropData(board, token, target: ["zone": "image-well"], data: [], files: ["forged"]).status == 404)
        #expect(try board.store.version() == version)
        _ = try board.post("/api/sessions/\(token)/end", [:])
        #expect(!FileManager.default.fileExists(atPath: uploads.path))
    }

    @Test func theLabelShowsTheLastTextDroppedOnIt() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [toy])
        let (_, json) = try board.post("/api/sessions/\(token)/drop", ["op": UUID().uuidString, "version": try board.store.version(), "target": ["zone": "label"], "location": NSNull()])
        #expect(json["operation"] as? String == "copy")
        #expect(try board.store.read { try $0.label("label") } == "Ball of yarn")
        #expect(try board.ids("cat-1").contains(toy))
        let (external, _) = try external(board, types: ["text/plain"])
        _ = try dropData(board, external, target: ["zone": "label"], data: [["text/plain", "<b>x</b>"]])
        let page = board.request(.get, "/boards/demo")
        guard case .bytes(let bytes) = page.body else { return }
        #expect(String(decoding: bytes, as: UTF8.self).contains("&lt;b&gt;x&lt;/b&gt;"))
    }

    @Test func anotherWindowJoinsTheSessionAndMoves() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [toy])
        let (status, json) = try board.post("/api/sessions/\(token)/join", [:])
        #expect(status == 200 && json["allowsMove"] as? Bool == true)
        #expect(try board.drop(token, list: "cat-2", row: 0).json["operation"] as? String == "move")
        #expect(try board.post("/api/sessions/\(token)/end", [:]).json["operation"] as? String == "move")
        #expect(try board.ids("cat-2").first == toy && !board.ids("cat-1").contains(toy))
        // Another browser cannot join.
        let other = "abcdefabcdefabcdefabcdefabcdef00"
        let token2 = try board.begin("cat-2", [toy])
        #expect(try board.post("/api/sessions/\(token2)/join", [:], csrf: other, cookie: other).status == 404)
    }
}
