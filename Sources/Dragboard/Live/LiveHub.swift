import MicroHTTP
import Synchronization

/// Every viewer's Server-Sent Events stream; a committed drop is pushed to all of them.
public final class LiveHub: Sendable {
    private let streams = Mutex<[ObjectIdentifier: EventStream]>([:])

    public init() {}

    /// Adds a viewer's stream until its client goes away.
    func subscribe(_ stream: EventStream, version: Int) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = stream }
        stream.onClose { [weak self] in _ = self?.streams.withLock { $0.removeValue(forKey: key) } }
        stream.send(event: "hello", id: String(version), data: "{\"version\":\(version)}")
    }

    /// Sends one event to every viewer; the event id is the board version, so a reconnecting
    /// browser's `Last-Event-ID` says what it has.
    func broadcast(event: String, version: Int, json: String) {
        let all = streams.withLock { Array($0.values) }
        for stream in all where !stream.isClosed {
            stream.send(event: event, id: String(version), data: json)
        }
    }

    var viewerCount: Int { streams.withLock { $0.count } }
}
