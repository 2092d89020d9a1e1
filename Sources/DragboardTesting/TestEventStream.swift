import DragboardStore
import Foundation
import MicroHTTPTesting

/// One event of a board's live stream (`text/event-stream`).
public struct TestEvent: Sendable, Equatable {
    /// `hello`, `changes`, `version`…
    public var name: String
    public var data: String

    /// `data` parsed as a JSON object.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
    }
}

/// A board's live stream as a viewer's page holds it (``DragboardTestApp/Transport-swift.enum/live`` only).
public final class TestEventStream {
    private let connection: TestConnection
    /// Decoded text already handed out as events.
    private var consumed = 0

    init(port: Int, path: String, cookie: String, timeout: Double) throws {
        connection = try TestConnection(port: port, timeout: timeout)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n")
        let head = try connection.readHead()
        guard head.status == 200 else { throw TestFailure("the event stream answered \(head.status)") }
    }

    deinit { connection.close() }

    /// The next event (comments and keep-alives skipped).
    /// - Throws: ``MicroHTTPTesting/TestClientError/timedOut`` when none comes within the stream's timeout.
    public func next() throws -> TestEvent {
        while true {
            let (text, ended) = try connection.readChunkedBody { [consumed] text in
                text.utf8.count > consumed && text.utf8.dropFirst(consumed).contains(UInt8(ascii: "\n")) && Self.hasBlock(text, after: consumed)
            }
            let rest = String(decoding: Array(text.utf8.dropFirst(consumed)), as: UTF8.self)
            guard let end = rest.range(of: "\n\n") else {
                if ended { throw TestClientError.closedEarly }
                continue
            }
            let block = rest[..<end.lowerBound]
            consumed += rest[..<end.upperBound].utf8.count
            var name = "message", data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("data:") { data.append(String(line.dropFirst(5).drop(while: { $0 == " " }))) }
            }
            if !data.isEmpty { return TestEvent(name: name, data: data.joined(separator: "\n")) }
        }
    }

    /// The next event named `name`, skipping others.
    public func next(named name: String) throws -> TestEvent {
        while true {
            let event = try next()
            if event.name == name { return event }
        }
    }

    private static func hasBlock(_ text: String, after offset: Int) -> Bool {
        String(decoding: Array(text.utf8.dropFirst(offset)), as: UTF8.self).contains("\n\n")
    }
}

extension DragboardTestApp {
    /// Opens `board`'s live stream as this browser; the first event is its `hello`.
    public func events(board: String = BoardStore.defaultBoardID, timeout: Double = 10) throws -> TestEventStream {
        guard let port else { throw TestFailure("live events need the live transport") }
        return try TestEventStream(port: port, path: "/boards/\(board)/events", cookie: cookie, timeout: timeout)
    }
}
