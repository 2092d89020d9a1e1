@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// An open toy box is a list of its own, through the routes on a real store: its contents are a
/// target of every session (named by the box's id), take toys at an index, refuse boxes with a
/// reason, and their rows drag out again to a cat or another box.
@Suite struct BoxContentsRouteTests {
    private func runs(_ json: [String: Any], _ target: String) -> [[String: Any]]? {
        let targets = (json["table"] as? [String: Any])?["targets"] as? [[String: Any]]
        return targets?.first { ($0["target"] as? [String: Any])?["list"] as? String == target }?["runs"] as? [[String: Any]]
    }

    private func operation(_ runs: [[String: Any]]?) -> String? {
        (runs?.first?["proposal"] as? [String: Any])?["op"] as? String
    }

    @Test func everyBoxIsATargetOfEverySessionOpenOrNot() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let (status, json) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "cat-1", "items": [toy]])
        #expect(status == 201)
        for box in ["box-red", "box-blue", "box-green"] { #expect(operation(runs(json, box)) == "move") }
        // One run covering every gap of the green box (two toys: three gaps).
        #expect(runs(json, "box-green")?.first?["count"] as? Int == 3)
        let (_, boxDrag) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "toy-boxes", "items": ["box-red"]])
        let refused = try #require(runs(boxDrag, "box-green")?.first?["proposal"] as? [String: Any])
        #expect(refused["op"] as? String == "forbidden")
        #expect(refused["reason"] as? String == "a box never goes into a box")
    }

    @Test func aToyDroppedIntoABoxAtAnIndexLandsThere() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-2")[1]   // Bell ball
        let token = try board.begin("cat-2", [toy])
        let before = try board.store.version()
        let (status, json) = try board.drop(token, list: "box-green", row: 1, fraction: 0.2)
        #expect(status == 200)
        #expect(json["operation"] as? String == "move")
        #expect(json["intent"] as? String == "insert-at")
        #expect(json["message"] as? String == "Put Bell ball into Green box.")
        #expect(json["version"] as? Int == before + 1)
        #expect(try board.store.contents(of: "box-green").map(\.title) == ["Spinning top", "Bell ball", "Marble"])
        #expect(try board.store.items([toy]).first?.containerID == "box-green")
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["remove", "replace"])
        let html = try #require(changes[1]["html"] as? String)
        #expect(html.contains("data-list=\"box-green\""))
        #expect(html.contains("data-item=\"\(toy)\""))
    }

    @Test func aToyDraggedOutOfABoxGoesToACatAndTheBoxIsShownAgain() async throws {
        let board = try await TestBoard()
        let duck = try #require(try board.store.contents(of: "box-red").first?.id)
        let token = try board.begin("box-red", [duck])
        let (_, json) = try board.drop(token, list: "cat-1", row: 1, fraction: 0.2)
        #expect(json["operation"] as? String == "move")
        #expect(json["message"] as? String == "Moved Rubber duck from Red box to Whiskers.")
        #expect(try board.titles("cat-1") == ["Ball of yarn", "Rubber duck", "Feather wand", "Catnip mouse"])
        #expect(try board.store.contents(of: "box-red").isEmpty)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["remove", "insert", "replace"])
        #expect(changes[2]["item"] as? String == "box-red")
        #expect((changes[2]["html"] as? String)?.contains("data-count=\"0\"") == true)
    }

    @Test func aToyMovesFromBoxToBoxAndWithinABox() async throws {
        let board = try await TestBoard()
        let duck = try #require(try board.store.contents(of: "box-red").first?.id)
        let (_, json) = try board.drop(try board.begin("box-red", [duck]), list: "box-green", row: 1, fraction: 0.8)
        #expect(json["operation"] as? String == "move")
        #expect(try board.store.contents(of: "box-green").map(\.title) == ["Spinning top", "Marble", "Rubber duck"])
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(Set(changes.compactMap { $0["kind"] as? String == "replace" ? $0["item"] as? String : nil }) == ["box-green", "box-red"])
        // Within the green box: Rubber duck to the front.
        let (_, within) = try board.drop(try board.begin("box-green", [duck]), list: "box-green", row: 0, fraction: 0.1)
        #expect(within["operation"] as? String == "move")
        #expect(try board.store.contents(of: "box-green").map(\.title) == ["Rubber duck", "Spinning top", "Marble"])
    }

    @Test func aBoxDroppedIntoABoxIsForbiddenAndChangesNothing() async throws {
        let board = try await TestBoard()
        let before = try board.store.version()
        let (status, json) = try board.drop(try board.begin("toy-boxes", ["box-red"]), list: "box-green", row: 0)
        #expect(status == 200)
        #expect(json["operation"] as? String == "forbidden")
        #expect(json["reason"] as? String == "a box never goes into a box")
        #expect(try board.store.version() == before)
        #expect(try board.store.contents(of: "box-green").count == 2)
    }

    @Test func aDragNamingARowThatIsNotInTheBoxIsRefused() async throws {
        let board = try await TestBoard()
        let toy = try board.ids("cat-1")[0]
        let (status, json) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": "box-red", "items": [toy]])
        #expect(status == 404)
        #expect(((json["error"] as? [String: Any])?["message"] as? String)?.contains("is not in Red box") == true)
        #expect(board.service.sessions.count == 0)
        // A toy (not a container) is no source list either.
        let duck = try #require(try board.store.contents(of: "box-red").first?.id)
        let (toyStatus, _) = try board.post("/api/sessions", ["token": TestBoard.token(), "list": toy, "items": [duck]])
        #expect(toyStatus == 404)
    }

    @Test func aDragInAndOutOfABoxIsAnnouncedWithTheBoxsName() async throws {
        let board = try await TestBoard()
        let duck = try #require(try board.store.contents(of: "box-red").first?.id)
        let token = TestBoard.token()
        let (status, json) = try board.post("/api/sessions", ["token": token, "list": "box-red", "items": [duck]])
        #expect(status == 201)
        #expect(json["announcement"] as? String == "Picked up Rubber duck, 1 of 1 in Red box.")
        let targets = try #require((json["table"] as? [String: Any])?["targets"] as? [[String: Any]])
        #expect(targets.first { ($0["target"] as? [String: Any])?["list"] as? String == "box-green" }?["name"] as? String == "Green box")
        let (targetStatus, answer) = try board.post("/api/sessions/\(token)/target", ["target": ["list": "box-green"], "location": ["row": 1, "fraction": 0.2]])
        #expect(targetStatus == 200)
        #expect(answer["announcement"] as? String == "Green box, position 2 of 3: move.")
    }
}
