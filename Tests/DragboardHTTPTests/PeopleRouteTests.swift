import Dragboard
import DragboardTesting
import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@testable import DragboardHTTP
@testable import DragboardStore

/// Who did what and who is here: the activity of a board, presence, and drags in the air, as
/// viewers' live streams and pages get them.
@Suite struct PeopleRouteTests {
    static func twoPeople(transport: DragboardTestApp.Transport = .live) async throws -> (TestBoard, TestPerson, TestPerson) {
        let board = try await TestBoard(transport: transport)
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        try board.store.setMember(named: "bob", role: .editor, on: "demo")
        return (board, try board.app.signIn("alice"), try board.app.signIn("bob"))
    }

    static func cards(_ board: TestBoard) throws -> (list: String, items: [String], titles: [String]) {
        try board.store.read(board: "demo") { tx in
            let snapshot = try tx.snapshot()
            let list = snapshot.lists.first { snapshot.rows(in: $0.id).count >= 2 }!
            return (list.id, snapshot.rows(in: list.id).map(\.id), snapshot.rows(in: list.id).map(\.title))
        }
    }

    @Test func everyChangeIsToldByItsAuthorNewestFirstPagedAndLive() async throws {
        let (board, alice, bob) = try await Self.twoPeople()
        defer { board.remove() }
        let stream = try alice.events()
        _ = try stream.next(named: "hello")
        let (list, _, _) = try Self.cards(board)
        #expect(try bob.postForm("/boards/demo/lists/\(list)/items", ["title": "Card 7"]).status == 303)
        let live = try #require(try stream.next(named: "activity").json)
        #expect(live["author"] as? String == "bob")
        #expect((live["words"] as? String)?.hasPrefix("bob added “Card 7”") == true || (live["words"] as? String)?.hasPrefix("bob added Card 7") == true)
        #expect(try alice.postForm("/boards/demo/lists/\(list)/rename", ["title": "Doing"]).status == 303)
        let json = try #require(try alice.get("/boards/demo/activity", headers: ["Accept": "application/json"]).json)
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.map { $0["author"] as? String } == ["alice", "bob"])
        #expect((entries[0]["words"] as? String)?.hasPrefix("alice renamed") == true)
        #expect(entries[0]["at"] is String && json["next"] == nil)
        let page = try alice.get("/boards/demo/activity").text
        #expect(page.contains("bob added") && page.contains("alice renamed"))
        #expect(try alice.get("/boards/demo").text.contains("data-activity-panel"))
    }

    @Test func activityIsPagedWithBefore() async throws {
        let (board, alice, _) = try await Self.twoPeople(transport: .router)
        defer { board.remove() }
        let (list, _, _) = try Self.cards(board)
        for index in 0..<55 { #expect(try alice.postForm("/boards/demo/lists/\(list)/items", ["title": "Card \(index)"]).status == 303) }
        let first = try #require(try alice.get("/boards/demo/activity", headers: ["Accept": "application/json"]).json)
        #expect((first["entries"] as? [[String: Any]])?.count == 50)
        let next = try #require(first["next"] as? Int)
        let second = try #require(try alice.get("/boards/demo/activity?before=\(next)", headers: ["Accept": "application/json"]).json)
        let older = try #require(second["entries"] as? [[String: Any]])
        #expect(older.count == 5 && (older.last?["words"] as? String)?.contains("Card 0") == true)
        #expect(try alice.get("/boards/demo/activity?before=-1").status == 400)
    }

    @Test func presenceListsWhoViewsTheBoardAndDropsThoseWhoLeave() async throws {
        let (board, alice, bob) = try await Self.twoPeople()
        defer { board.remove() }
        let aliceStream = try alice.events()
        #expect(try aliceStream.next(named: "presence").json?["people"] as? [String] == ["alice"])
        let bobStream = try bob.events()
        #expect(try aliceStream.next(named: "presence").json?["people"] as? [String] == ["alice", "bob"])
        // Signing out ends bob's stream at once (a closed tab is noticed at the next heartbeat).
        #expect(try bob.postForm("/logout", [:]).status == 303)
        #expect(try aliceStream.next(named: "presence").json?["people"] as? [String] == ["alice"])
        _ = bobStream
    }

    @Test func aDragInTheAirIsToldAtItsStartTargetChangesAndEndNeverPerHover() async throws {
        let (board, alice, bob) = try await Self.twoPeople()
        defer { board.remove() }
        let (list, items, titles) = try Self.cards(board)
        let stream = try alice.events()
        _ = try stream.next(named: "hello")
        let token = DragSessions.randomToken()
        #expect(try bob.post("/api/sessions", json: ["token": token, "list": list, "items": [items[0]], "board": "demo"]).status == 201)
        let began = try #require(try stream.next(named: "dragging").json)
        #expect(began["user"] as? String == "bob" && began["items"] as? [String] == [items[0]])
        #expect(began["words"] as? String == "bob is moving “\(titles[0])”")
        #expect(began["ended"] as? Bool == false)
        #expect(began["drag"] as? String != token)
        for fraction in [0.1, 0.3, 0.6] {
            _ = try bob.post("/api/sessions/\(token)/target", json: ["target": ["list": list], "location": ["row": 1, "fraction": fraction]])
        }
        #expect(try stream.next(named: "dragging").json?["ended"] as? Bool == false)   // the one target change
        _ = try bob.post("/api/sessions/\(token)/end", json: [:])
        let ended = try #require(try stream.next(named: "dragging").json)
        #expect(ended["ended"] as? Bool == true && ended["drag"] as? String == began["drag"] as? String)
    }

    @Test func removingAMemberClosesTheirLiveStreamAtOnce() async throws {
        let (board, alice, bob) = try await Self.twoPeople()
        defer { board.remove() }
        let stream = try bob.events(timeout: 5)
        _ = try stream.next(named: "hello")
        #expect(try alice.postForm("/boards/demo/members/remove", ["username": "bob"]).status == 303)
        // Closed by the server, not left to time out.
        #expect(throws: TestClientError.closedEarly) {
            while true { _ = try stream.next() }
        }
        #expect(try bob.get("/boards/demo").status == 404)
    }

    @Test func aSignInEndedByAnotherProcessLosesItsStreamWithinASecond() async throws {
        let (board, alice, bob) = try await Self.twoPeople()
        defer { board.remove() }
        _ = alice
        let stream = try bob.events(timeout: 5)
        _ = try stream.next(named: "hello")
        // As `dragboard users set-password` does from another process: straight in the database.
        try board.store.setPasswordHash("$argon2id$changed", forAccountNamed: "bob")
        // Closed by the server's sweep (twice a second), long before the stream's 5 s would run out.
        #expect(throws: TestClientError.closedEarly) {
            while true { _ = try stream.next() }
        }
    }
}
