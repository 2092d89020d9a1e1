@testable import DragboardStore
import Foundation
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// The drag-and-drop protocol through the routes, in process, on a real SQLite store.
@Suite struct DropRouteTests {
    @Test func aToyMovesBetweenCatsAndTheAnswerDescribesTheChange() async throws {
        let board = try await TestBoard()
        let feather = try board.ids("cat-1")[1]
        let token = try board.begin("cat-1", [feather])
        let before = try board.store.version()
        let (status, json) = try board.drop(token, list: "cat-2", row: 0, fraction: 0.2)
        #expect(status == 200)
        #expect(json["operation"] as? String == "move")
        #expect(json["message"] as? String == "Moved Feather wand from Whiskers to Tom.")
        #expect(json["version"] as? Int == before + 1)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["remove", "insert"])
        #expect(changes[1]["after"] == nil || changes[1]["after"] is NSNull)
        #expect((changes[1]["html"] as? String)?.contains("data-item=\"\(feather)\"") == true)
        #expect(try board.titles("cat-1") == ["Ball of yarn", "Catnip mouse"])
        #expect(try board.titles("cat-2") == ["Feather wand", "Laser pointer", "Bell ball"])
        #expect(try board.store.items([feather]).first?.listID == "cat-2")   // same row, moved
        let end = try board.post("/api/sessions/\(token)/end", [:])
        #expect(end.json["operation"] as? String == "move")
        #expect(board.service.sessions.count == 0)
    }

    /// The end tells the page a drag began in where the drag's own drop left the board (a drop another
    /// window took shows up there), and reads nothing: other changes reach the page through its live updates.
    @Test func aDragsEndAnswersTheVersionItsOwnDropLeft() async throws {
        let board = try await TestBoard()
        let start = try board.store.version()
        let toys = try board.ids("cat-1")
        let dragged = try board.begin("cat-1", [toys[0]])
        #expect(try board.drop(dragged, list: "cat-2", row: 0).json["version"] as? Int == start + 1)
        // Someone else's drop lands before this drag's end.
        let other = try board.begin("cat-1", [toys[1]])
        #expect(try board.drop(other, list: "cat-2", row: 0).json["version"] as? Int == start + 2)
        #expect(try board.post("/api/sessions/\(other)/end", [:]).json["version"] as? Int == start + 2)
        let end = try board.post("/api/sessions/\(dragged)/end", [:])
        #expect(end.json["operation"] as? String == "move")
        #expect(end.json["version"] as? Int == start + 1)
        // A drag that ends without a drop answers the version it began from, whatever happened since.
        let cancelled = try board.begin("cat-1", [toys[2]])
        let moved = try board.begin("cat-2", [toys[0]])
        #expect(try board.drop(moved, list: "cat-1", row: 0).json["version"] as? Int == start + 3)
        let ended = try board.post("/api/sessions/\(cancelled)/end", [:])
        #expect(ended.json["operation"] as? String == "cancel")
        #expect(ended.json["version"] as? Int == start + 2)
    }

    @Test func aPersonOnACatIsForbiddenWithAReasonAndNothingChanges() async throws {
        let board = try await TestBoard()
        let ada = try board.ids("people")[0]
        let token = try board.begin("people", [ada])
        let before = try board.store.version()
        let (status, json) = try board.drop(token, list: "cat-1", row: 0)
        #expect(status == 200)
        #expect(json["operation"] as? String == "forbidden")
        #expect((json["reason"] as? String)?.contains("people") == true)
        #expect(try board.store.version() == before)
        #expect(try board.ids("people").contains(ada))
    }

    @Test func theTableOfABeganSessionFollowsEachListsRules() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let token = TestBoard.token()
        let (status, json) = try board.post("/api/sessions", ["token": token, "list": "cat-1", "items": [toy]])
        #expect(status == 201)
        let targets = try #require((json["table"] as? [String: Any])?["targets"] as? [[String: Any]])
        func entry(_ list: String) -> [String: Any]? { targets.first { ($0["target"] as? [String: Any])?["list"] as? String == list } }
        func firstOperation(_ list: String) -> String? { ((entry(list)?["runs"] as? [[String: Any]])?.first?["proposal"] as? [String: Any])?["op"] as? String }
        #expect(firstOperation("cat-2") == "move")
        #expect(firstOperation("places") == "copy")
        #expect(entry("people")?["handled"] as? Bool == false)
        let boxRuns = try #require(entry("toy-boxes")?["runs"] as? [[String: Any]])
        let intents = boxRuns.compactMap { ($0["proposal"] as? [String: Any])?["intent"] as? String }
        #expect(intents.contains("automatic"))
    }

    @Test func aToyGoesIntoABoxOverItsMiddle() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-2")[0]
        let token = try board.begin("cat-2", [toy])
        let (_, json) = try board.drop(token, list: "toy-boxes", row: 1, fraction: 0.5)
        #expect(json["intent"] as? String == "insert-into")
        #expect(json["message"] as? String == "Put Laser pointer into Blue box.")
        #expect(try board.store.contents(of: "box-blue").map(\.id) == [toy])
        #expect(try !board.ids("cat-2").contains(toy))
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["remove", "replace"])
    }

    @Test func placesFollowTheTableSample() async throws {
        let board = try await TestBoard()
        let places = try board.ids("places")
        // Several rows within the same list: cancel, nothing changes.
        let several = try board.begin("places", [places[0], places[2]])
        let before = try board.store.version()
        #expect(try board.drop(several, list: "places", row: 4, fraction: 0.9).json["operation"] as? String == "cancel")
        #expect(try board.store.version() == before)
        // From elsewhere below the last row: copied and appended.
        let toy = try board.ids("cat-3")[0]
        let copy = try board.begin("cat-3", [toy])
        let (_, json) = try board.drop(copy, list: "places", row: nil)
        #expect(json["operation"] as? String == "copy")
        #expect(try board.titles("places").last == "Crinkle tunnel")
        #expect(try board.ids("cat-3").contains(toy))
    }
}
