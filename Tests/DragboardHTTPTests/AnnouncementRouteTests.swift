import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// The words of a drag, as the protocol's answers carry them for the live region.
@Suite struct AnnouncementRouteTests {
    @Test func beginSaysWhatWasPickedUpAndNamesEveryTarget() async throws {
        let board = try await TestBoard()
        let mouse = try board.ids("cat-1")[2]
        let token = TestBoard.token()
        let (status, json) = try board.post("/api/sessions", ["token": token, "list": "cat-1", "items": [mouse]])
        #expect(status == 201)
        #expect(json["announcement"] as? String == "Picked up Catnip mouse, 3 of 3 in Whiskers.")
        let targets = try #require((json["table"] as? [String: Any])?["targets"] as? [[String: Any]])
        let names = targets.compactMap { $0["name"] as? String }
        #expect(names.count == targets.count)
        #expect(names.contains("Tom") && names.contains("Toy boxes") && names.contains("Image well") && names.contains("Label"))
        #expect(json["nowhere"] == nil)   // the row has destinations
    }

    @Test func eachTargetChangeSaysThePlaceAndTheProposal() async throws {
        let board = try await TestBoard()
        let mouse = try board.ids("cat-1")[2]
        let token = try board.begin("cat-1", [mouse])
        func target(_ target: [String: String], _ location: [String: Any]?) throws -> String? {
            var body: [String: Any] = ["target": target]
            if let location { body["location"] = location }
            return try board.post("/api/sessions/\(token)/target", body).json["announcement"] as? String
        }
        let laser = try board.ids("cat-2")[0]
        #expect(try target(["list": "cat-2"], ["row": 1, "fraction": 0.1]) == "Tom, position 2 of 3: move.")
        #expect(try target(["list": "cat-2"], ["row": 0, "fraction": 0.1, "item": laser]) == "Tom, position 1 of 3: move.")
        // Within its own list, the row takes one of the list's three places.
        #expect(try target(["list": "cat-1"], ["row": 0, "fraction": 0.1]) == "Whiskers, position 1 of 3: move.")
        let red = try board.ids("toy-boxes")[0]
        #expect(try target(["list": "toy-boxes"], ["row": 0, "fraction": 0.5, "item": red]) == "Toy boxes, into Red box: move.")
        #expect(try target(["list": "people"], ["row": 0, "fraction": 0.1]) == "People: cannot drop here.")
    }

    @Test func aForbiddenTargetIsAnnouncedWithItsReasonAndACancelSaysWhereTheRowStays() async throws {
        let board = try await TestBoard()
        let ada = try board.ids("people")[0]
        let token = try board.begin("people", [ada])
        let (_, json) = try board.post("/api/sessions/\(token)/target", ["target": ["list": "cat-2"], "location": ["row": 0, "fraction": 0.1]])
        #expect(json["announcement"] as? String == "Tom: not allowed, Tom only plays with toys, not with people.")
        let end = try board.post("/api/sessions/\(token)/end", [:])
        #expect(end.json["operation"] as? String == "cancel")
        #expect(end.json["announcement"] as? String == "Cancelled. Ada Lovelace stays in People.")
    }
}
