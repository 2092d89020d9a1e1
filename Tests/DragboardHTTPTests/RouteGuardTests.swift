import Dragboard
import DragboardTesting
import Foundation
import MicroHTTP
import Testing

@testable import DragboardHTTP
@testable import DragboardStore

/// Every route the router knows refuses an anonymous request and a person who is not a member
/// of the board it works on: a route added later cannot forget the check.
@Suite struct RouteGuardTests {
    /// Routes anyone may reach without signing in.
    static let publicRoutes: Set<String> = ["GET /login", "POST /login"]

    /// Routes that work on no board of anyone else's, and what a non-member gets from them instead of 404.
    static let personalRoutes: [String: Int] = [
        "GET /": 200,               // the index, listing only their boards
        "POST /boards": 303,        // creating a board of their own
        "POST /boards/import": 422, // importing one of their own (the test sends no file)
        "POST /logout": 303,        // ending their own sign-in
        "GET /api/undo": 200,       // their own history (empty)
    ]

    /// A path for `pattern` with ids that exist (the board is always `demo`).
    static func path(_ pattern: String, list: String, item: String) -> String {
        pattern.replacingOccurrences(of: ":board", with: "demo").replacingOccurrences(of: ":list", with: list)
            .replacingOccurrences(of: ":token", with: "0123456789abcdef0123456789abcdef").replacingOccurrences(of: ":id", with: item)
    }

    /// A body the route would take from a member: JSON for the API, a form for the rest.
    static func request(_ route: Router.RouteDescription, list: String, item: String, cookie: String, csrf: String) -> Request {
        let path = path(route.pattern, list: list, item: item)
        var headers: HTTPHeaders = ["Cookie": cookie, RequestGuard.headerName: csrf]
        var body: [UInt8] = []
        if route.method == .post {
            if route.pattern.hasPrefix("/api/") {
                headers["Content-Type"] = "application/json"
                let json: [String: Any] = ["token": "fedcba9876543210fedcba9876543210", "list": list, "items": [item], "board": "demo", "types": ["text/plain"],
                                           "files": [], "op": "op-\(UUID().uuidString)", "version": 1, "target": ["list": list]]
                body = Array(try! JSONSerialization.data(withJSONObject: json))
            } else {
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                body = Array("csrf=\(csrf)&title=T&item=\(item)&username=bob&role=editor&to=list:\(list)&image=\(item)".utf8)
            }
        }
        return Request(method: route.method, path: path, query: route.pattern.hasSuffix("/move") ? ["item": item] : [:], headers: headers, body: body)
    }

    @Test func everyRouteRefusesAnAnonymousRequestOnceAccountsExist() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let (list, item) = try Self.someRow(board)
        let before = try board.picture("demo")
        for route in board.router.routeTable where !Self.publicRoutes.contains("\(route.method.rawValue) \(route.pattern)") {
            let response = board.router.respond(to: Self.request(route, list: list, item: item, cookie: "dragboard_csrf=\(board.csrf)", csrf: board.csrf))
            #expect(response.status == .unauthorized, "\(route.method.rawValue) \(route.pattern) answered \(response.status.code)")
        }
        #expect(try board.picture("demo") == before)
    }

    @Test func everyRouteOfABoardAnswers404ToANonMember() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        let bob = try board.app.signIn("bob")
        let (list, item) = try Self.someRow(board)
        let before = try board.picture("demo")
        // Signing out last: it ends the sign-in the other requests use.
        let routes = board.router.routeTable
        for route in routes.filter({ $0.pattern != "/logout" }) + routes.filter({ $0.pattern == "/logout" }) {
            let name = "\(route.method.rawValue) \(route.pattern)"
            guard !Self.publicRoutes.contains(name) else { continue }
            let response = board.router.respond(to: Self.request(route, list: list, item: item, cookie: bob.cookie, csrf: bob.csrf))
            let expected = Self.personalRoutes[name] ?? 404
            #expect(response.status.code == expected, "\(name) answered \(response.status.code): \(TestBoard.text(response).prefix(200))")
        }
        #expect(try board.picture("demo") == before)
        #expect(try board.store.members(of: "demo").isEmpty)
    }

    @Test func everyChangingRouteOfABoardAnswers403ToAViewer() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        try board.store.setMember(named: "bob", role: .viewer, on: "demo")
        let bob = try board.app.signIn("bob")
        let (list, item) = try Self.someRow(board)
        let before = try board.picture("demo")
        for route in board.router.routeTable where route.method == .post && route.pattern.hasPrefix("/boards/:board") {
            let response = board.router.respond(to: Self.request(route, list: list, item: item, cookie: bob.cookie, csrf: bob.csrf))
            #expect(response.status == .forbidden, "\(route.pattern) answered \(response.status.code)")
        }
        #expect(try board.picture("demo") == before)
        #expect(try board.store.members(of: "demo").map(\.role) == [.viewer])
    }

    static func someRow(_ board: TestBoard) throws -> (list: String, item: String) {
        try board.store.read(board: "demo") { tx in
            let list = try tx.lists()[0]
            return (list.id, try tx.snapshot().rows(in: list.id)[0].id)
        }
    }
}

extension TestBoard {
    /// What a board holds, comparable: its version, and each list with its title and rows in order.
    func picture(_ board: String) throws -> [String] {
        let snapshot = try store.snapshot(board: board)
        return ["version \(snapshot.version)"] + snapshot.lists.map { list in
            "\(list.id) \(list.title): " + snapshot.rows(in: list.id).map { "\($0.id) \($0.title)" }.joined(separator: ", ")
        }
    }
}
