import DragboardStore
import Foundation
import MicroHTTPTesting

extension DragboardTestApp {
    /// Begins a drag of `items` of `list` as the page does at `dragstart`, with a new session token.
    /// - Throws: ``TestFailure`` when the server does not answer 201 with that token.
    public func drag(_ items: [String], from list: String, board: String? = nil) throws -> TestDrag {
        let token = Self.newToken()
        var request: [String: Any] = ["token": token, "list": list, "items": items]
        if let board { request["board"] = board }
        let began = try post("/api/sessions", json: request)
        guard began.status == 201, began.json?["token"] as? String == token else {
            throw TestFailure("the drag did not begin: \(began.status) \(began.text)")
        }
        return TestDrag(app: self, token: token, board: board, began: began)
    }

    /// A session token of the page's form: 32 hex digits.
    public static func newToken() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}

/// One drag through the protocol, begun by ``DragboardTestApp/drag(_:from:board:)``: its target
/// changes, its drop and its end are the requests the page's scripts send.
public struct TestDrag: Sendable {
    public let app: DragboardTestApp
    public let token: String
    public let board: String?
    /// What beginning answered: the version, the proposal table, the words for a screen reader
    /// (nil for a drag whose session began elsewhere).
    public let began: TestResponse?

    /// A drag whose session `token` was begun another way (an external drop, a test's own request).
    public init(app: DragboardTestApp, token: String, board: String? = nil, began: TestResponse? = nil) {
        self.app = app
        self.token = token
        self.board = board
        self.began = began
    }

    /// The pointer entered `list` (over `row` at `fraction` of its height, or over no row).
    public func hover(list: String, row: Int? = nil, fraction: Double = 0.5) throws -> TestResponse {
        try app.post("/api/sessions/\(token)/target", json: ["target": ["list": list], "location": Self.location(row, fraction, item: nil)])
    }

    /// The pointer entered a zone.
    public func hover(zone: String) throws -> TestResponse {
        try app.post("/api/sessions/\(token)/target", json: ["target": ["zone": zone]])
    }

    /// The pointer left every target.
    public func leave() throws -> TestResponse {
        try app.post("/api/sessions/\(token)/target", json: [:] as [String: Any])
    }

    /// Drops on `list`, over `row` (nil: over no row), saying the version the page saw (by default
    /// the board's current one) and the operation id a retry would repeat.
    public func drop(on list: String, row: Int?, fraction: Double = 0.3, item: String? = nil, version: Int? = nil,
                     op: String = UUID().uuidString, copy: Bool = false) throws -> TestResponse {
        var request: [String: Any] = [
            "op": op, "version": try version ?? app.store.version(board: board ?? BoardStore.defaultBoardID),
            "target": ["list": list], "location": Self.location(row, fraction, item: item),
        ]
        if copy { request["copy"] = true }
        return try app.post("/api/sessions/\(token)/drop", json: request)
    }

    /// Ends the session (`dragend`): every target it entered hears of it.
    public func end() throws -> TestResponse {
        try app.post("/api/sessions/\(token)/end", json: [:] as [String: Any])
    }

    private static func location(_ row: Int?, _ fraction: Double, item: String?) -> Any {
        guard let row else { return NSNull() }
        var location: [String: Any] = ["row": row, "fraction": fraction]
        if let item { location["item"] = item }
        return location
    }
}

/// What a harness call found wrong, in words.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
