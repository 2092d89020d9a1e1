import Dragboard
import MicroHTTP
import Synchronization

/// Every viewer's Server-Sent Events stream, by board; a committed change is pushed to the
/// viewers of the board it changed.
public final class LiveHub: Sendable {
    private struct Viewer {
        var board: String
        var stream: EventStream
    }

    private let streams = Mutex<[ObjectIdentifier: Viewer]>([:])

    public init() {}

    /// Adds a viewer of `board` until its client goes away.
    func subscribe(_ stream: EventStream, board: String, version: Int) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = Viewer(board: board, stream: stream) }
        stream.onClose { [weak self] in _ = self?.streams.withLock { $0.removeValue(forKey: key) } }
        stream.send(event: "hello", id: String(version), data: "{\"version\":\(version)}")
    }

    /// Sends one event to every viewer of `board`; the event id is the board's version, so a
    /// reconnecting browser's `Last-Event-ID` says what it has.
    func broadcast(event: String, board: String, version: Int, json: String) {
        let all = streams.withLock { $0.values.filter { $0.board == board }.map(\.stream) }
        for stream in all where !stream.isClosed {
            stream.send(event: event, id: String(version), data: json)
        }
    }

    /// Tells the viewers of `board` that it reached `version` through another instance sharing
    /// the database: those behind read the board again (they have no changes to apply).
    func announce(board: String, version: Int) {
        broadcast(event: "version", board: board, version: version, json: "{\"version\":\(version)}")
    }

    var viewerCount: Int { streams.withLock { $0.count } }
}
