import Dragboard
import DragboardTesting
import Foundation
import MicroHTTP
import Testing

@testable import DragboardHTTP
@testable import DragboardStore

/// The engine decides by the person: a viewer's drag proposes forbidden everywhere with the
/// reason, and its drop answers 403; across boards, an editor on both or forbidden.
@Suite struct RoleDragTests {
    static let viewOnly = "You can view this board but not change it."

    struct Setup {
        let board: TestBoard
        let alice: TestPerson
        let bob: TestPerson
        let list: String
        let items: [String]
        let other: String
    }

    /// alice (admin) and bob, who has `role` on the demo board.
    static func setup(_ role: BoardRole) async throws -> Setup {
        let board = try await TestBoard()
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        try board.store.setMember(named: "bob", role: role, on: "demo")
        let (list, items, other) = try board.store.read(board: "demo") { tx in
            let lists = try tx.lists()
            let snapshot = try tx.snapshot()
            let cards = snapshot.lists.first { snapshot.rows(in: $0.id).count >= 2 }!
            return (cards.id, snapshot.rows(in: cards.id).map(\.id), lists.first { $0.id != cards.id && $0.kind == cards.kind }?.id ?? cards.id)
        }
        return Setup(board: board, alice: try board.app.signIn("alice"), bob: try board.app.signIn("bob"), list: list, items: items, other: other)
    }

    static func begin(_ person: TestPerson, list: String, item: String, board: String = "demo") throws -> TestResponse {
        try person.post("/api/sessions", json: ["token": DragSessions.randomToken(), "list": list, "items": [item], "board": board])
    }

    @Test func aViewersDragIsForbiddenEverywhereWithTheReasonAndItsDropChangesNothing() async throws {
        let s = try await Self.setup(.viewer)
        defer { s.board.remove() }
        let before = try s.board.picture("demo")
        let begun = try Self.begin(s.bob, list: s.list, item: s.items[0])
        #expect(begun.status == 201)
        let json = try #require(begun.json)
        let token = try #require(json["token"] as? String)
        #expect(json["nowhere"] as? String == Self.viewOnly)
        let targets = try #require((json["table"] as? [String: Any])?["targets"] as? [[String: Any]])
        for entry in targets {
            let noRow = entry["noRow"] as? [String: Any]
            #expect(noRow?["op"] as? String == "forbidden")
            #expect(noRow?["reason"] as? String == Self.viewOnly)
            #expect(entry["menu"] == nil)
            for run in entry["runs"] as? [[String: Any]] ?? [] {
                #expect((run["proposal"] as? [String: Any])?["op"] as? String == "forbidden")
            }
        }
        let hover = try s.bob.post("/api/sessions/\(token)/target", json: ["target": ["list": s.other], "location": ["row": 0, "fraction": 0.2]])
        #expect(hover.json?["handled"] as? Bool == true)
        #expect((hover.json?["proposal"] as? [String: Any])?["op"] as? String == "forbidden")
        #expect((hover.json?["proposal"] as? [String: Any])?["reason"] as? String == Self.viewOnly)
        let drop = try s.bob.post("/api/sessions/\(token)/drop", json: ["op": "op-viewer-drop-1", "version": try s.board.store.version(board: "demo"), "target": ["list": s.other],
                                                                     "location": ["row": 0, "fraction": 0.2]])
        #expect(drop.status == 403)
        #expect(drop.errorCode == "forbidden")
        #expect(drop.json.flatMap { ($0["error"] as? [String: Any])?["message"] as? String } == Self.viewOnly)
        #expect(try s.board.picture("demo") == before)
    }

    @Test func anEditorsDragMovesAndJoinsTheirOwnUndoHistoryInEveryBrowser() async throws {
        let s = try await Self.setup(.editor)
        defer { s.board.remove() }
        let begun = try #require(try Self.begin(s.bob, list: s.list, item: s.items[0]).json)
        let token = try #require(begun["token"] as? String)
        let version = try s.board.store.version(board: "demo")
        let drop = try s.bob.post("/api/sessions/\(token)/drop", json: ["op": "op-editor-drop-1", "version": version, "target": ["list": s.list],
                                                                     "location": ["row": 1, "fraction": 0.9]])
        #expect(drop.status == 200)
        #expect(drop.json?["operation"] as? String == "move")
        // The same person signed in elsewhere undoes it; another person has nothing to undo.
        let elsewhere = try s.board.app.signIn("bob")
        #expect(try elsewhere.get("/api/undo?board=demo").json?["undoActionName"] != nil)
        #expect(try s.alice.get("/api/undo?board=demo").json?["undoActionName"] == nil)
        #expect(try elsewhere.post("/api/undo", json: ["op": "op-undo-elsewhere-1", "board": "demo"]).status == 200)
    }

    @Test func loweringARoleMidDragForbidsItsNextHoverAndDrop() async throws {
        let s = try await Self.setup(.editor)
        defer { s.board.remove() }
        let token = try #require(try Self.begin(s.bob, list: s.list, item: s.items[0]).json?["token"] as? String)
        let allowed = try s.bob.post("/api/sessions/\(token)/target", json: ["target": ["list": s.other], "location": ["row": 0, "fraction": 0.2]])
        #expect((allowed.json?["proposal"] as? [String: Any])?["op"] as? String == "move")
        #expect(try s.alice.postForm("/boards/demo/members/role", ["username": "bob", "role": "viewer"]).status == 303)
        let refused = try s.bob.post("/api/sessions/\(token)/target", json: ["target": ["list": s.other], "location": ["row": 0, "fraction": 0.2]])
        #expect((refused.json?["proposal"] as? [String: Any])?["reason"] as? String == Self.viewOnly)
        #expect(try s.alice.postForm("/boards/demo/members/remove", ["username": "bob"]).status == 303)
        let gone = try s.bob.post("/api/sessions/\(token)/target", json: ["target": ["list": s.other], "location": ["row": 0, "fraction": 0.2]])
        #expect(gone.status == 404)
        #expect(gone.text.contains("no longer a member"))
    }

    @Test func aViewerCannotUploadTheFilesOfADropFromAnotherApp() async throws {
        let s = try await Self.setup(.viewer)
        defer { s.board.remove() }
        let token = DragSessions.randomToken()
        let begun = try s.bob.post("/api/sessions/external", json: ["token": token, "types": ["Files"], "files": ["image/png"], "board": "demo"])
        #expect(begun.status == 201)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)
        let upload = try s.board.app.execute(.post, "/api/sessions/\(token)/files",
                                             headers: ["Cookie": s.bob.cookie, RequestGuard.headerName: s.bob.csrf, "Content-Type": "image/png",
                                                       "X-File-Name": "a.png"], body: png)
        #expect(upload.status == 403)
        #expect(upload.text.contains(Self.viewOnly))
    }

    @Test func aViewersMovePageOffersNoDestinationAndSaysWhy() async throws {
        let s = try await Self.setup(.viewer)
        defer { s.board.remove() }
        let page = try s.bob.get("/boards/demo/move?item=\(s.items[0])").text
        #expect(!page.contains(#"data-form="move""#))
        #expect(page.contains(Self.viewOnly))
        let editorPage = try s.alice.get("/boards/demo/move?item=\(s.items[0])").text
        #expect(editorPage.contains(#"data-form="move""#))
    }

    @Test func aViewersPageLeavesOutTheControlsThatChangeTheBoard() async throws {
        let s = try await Self.setup(.viewer)
        defer { s.board.remove() }
        let viewer = try s.bob.get("/boards/demo").text
        let owner = try s.alice.get("/boards/demo").text
        for control in [#"data-form="new-list""#, #"data-form="new-item""#, #"data-form="delete-list""#, #"data-form="rename-list""#, #"class="board-settings""#] {
            #expect(!viewer.contains(control), "\(control)")
            #expect(owner.contains(control), "\(control)")
        }
        #expect(viewer.contains("data-read-only"))
        #expect(viewer.contains(Self.viewOnly))
    }

    @Test func acrossBoardsADragNeedsAnEditorOnBoth() async throws {
        let s = try await Self.setup(.editor)
        defer { s.board.remove() }
        // bob owns a board of his own, and only views demo: a card of his may not go to demo.
        let created = try s.bob.postForm("/boards", ["title": "Bob's"])
        let mine = try #require(created.header("Location")?.split(separator: "/").last.map(String.init))
        let bob = try #require(try s.board.store.account(named: "bob")).account
        #expect(try s.board.store.role(of: bob, on: mine) == .owner)
        #expect(try s.bob.postForm("/boards/\(mine)/lists", ["title": "Mine", "kind": "cards"]).status == 303)
        let list = try s.board.store.read(board: mine) { try $0.lists()[0].id }
        #expect(try s.bob.postForm("/boards/\(mine)/lists/\(list)/items", ["title": "Card"]).status == 303)
        let card = try s.board.store.read(board: mine) { try $0.snapshot().rows(in: list)[0].id }
        try s.board.store.setMember(named: "bob", role: .viewer, on: "demo")
        let token = try #require(try Self.begin(s.bob, list: list, item: card, board: mine).json?["token"] as? String)
        #expect(try s.bob.post("/api/sessions/\(token)/join", json: ["board": "demo"]).status == 200)
        let hover = try s.bob.post("/api/sessions/\(token)/target", json: ["target": ["list": s.list], "location": ["row": 0, "fraction": 0.2]])
        #expect((hover.json?["proposal"] as? [String: Any])?["reason"] as? String == "You can view “Demo board” but not change it.")
    }
}

/// Boards an undo brings back keep someone who can open them.
@Suite struct UndoneBoardTests {
    @Test func aBoardWhoseDeletionIsUndoneComesBackOwnedByWhoeverUndidIt() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        let bob = try board.app.signIn("bob")
        let created = try bob.postForm("/boards", ["title": "Bob's"])
        let id = try #require(created.header("Location")?.split(separator: "/").last.map(String.init))
        #expect(try bob.postForm("/boards/\(id)/delete", ["confirmed": "yes"]).status == 303)
        #expect(try bob.get("/boards/\(id)").status == 404)
        #expect(try bob.post("/api/undo", json: ["op": "op-undo-delete-board"]).status == 200)
        #expect(try bob.get("/boards/\(id)").status == 200)
        #expect(try board.store.members(of: id).map { "\($0.account.name) \($0.role.rawValue)" } == ["bob owner"])
    }
}
