import Dispatch
import Dragboard
import MicroHTTP
import Synchronization

/// Every viewer's Server-Sent Events stream, by board; a committed change is pushed to the
/// viewers of the board it changed.
public final class LiveHub: Sendable {
    /// Who watches which board through a stream.
    struct Viewer: Sendable {
        var board: String
        /// The signed-in person (id and name) and their sign-in (nil where nobody signs in).
        var account: String?
        var name: String?
        var signIn: String?
    }

    let streams = Mutex<[ObjectIdentifier: (viewer: Viewer, stream: EventStream)]>([:])
    /// Where events are handed to the streams, in the order they were broadcast.
    private let fanOut = DispatchQueue(label: "dragboard.live.fan-out")
    /// Events broadcast and not yet handed over, in order, each with the streams it goes to; and
    /// whether a hand-over is due on `fanOut`.
    private let pending = Mutex<(events: [(streams: [EventStream], event: ServerSentEvent)], due: Bool)>(([], false))

    public init() {}

    /// Adds a viewer of `board` until its client goes away.
    func subscribe(_ stream: EventStream, viewer: Viewer, version: Int) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = (viewer, stream) }
        stream.onClose { [weak self] in
            _ = self?.streams.withLock { $0.removeValue(forKey: key) }
            if viewer.name != nil { self?.announcePresence(board: viewer.board) }
        }
        stream.send(event: "hello", id: String(version), data: "{\"version\":\(version)}")
        if viewer.name != nil { announcePresence(board: viewer.board) }
    }

    /// Sends one event to every viewer of `board`; the event id is the board's version, so a
    /// reconnecting browser's `Last-Event-ID` says what it has.
    func broadcast(event: String, board: String, version: Int, json: String) {
        let all = streams.withLock { $0.values.filter { $0.viewer.board == board }.map(\.stream) }
        guard !all.isEmpty else { return }
        // Formatted once, and handed to the viewers off the request's thread: a drop's answer does not
        // wait for thousands of streams. One serial queue keeps every viewer's events in commit order.
        hand(ServerSentEvent(event: event, id: String(version), data: json), to: all)
    }

    /// Queues `event` for `streams`, behind every event queued before it.
    func hand(_ event: ServerSentEvent, to streams: [EventStream]) {
        let schedule = pending.withLock { pending -> Bool in
            pending.events.append((streams, event))
            defer { pending.due = true }
            return !pending.due
        }
        if schedule { fanOut.async { self.handOver() } }
    }

    /// Hands every pending event to its streams. Events broadcast meanwhile (a drop's change and its
    /// activity line, or a burst of drops) go to each stream in one write: a viewer costs one `send`.
    private func handOver() {
        let events = pending.withLock { pending in
            defer { pending = ([], false) }
            return pending.events
        }
        if events.count == 1, let only = events.first {
            for stream in only.streams where !stream.isClosed { stream.send(only.event) }
            return
        }
        var batches: [ObjectIdentifier: (stream: EventStream, events: [ServerSentEvent])] = [:]
        var order: [ObjectIdentifier] = []
        for (streams, event) in events {
            for stream in streams {
                let key = ObjectIdentifier(stream)
                if batches[key] == nil { order.append(key); batches[key] = (stream, []) }
                batches[key]!.events.append(event)
            }
        }
        for key in order {
            guard let (stream, events) = batches[key], !stream.isClosed else { continue }
            stream.send(events.count == 1 ? events[0] : ServerSentEvent(events))
        }
    }

    /// Tells the viewers of `board` that it reached `version` through another instance sharing
    /// the database: those behind read the board again (they have no changes to apply).
    func announce(board: String, version: Int) {
        broadcast(event: "version", board: board, version: version, json: "{\"version\":\(version)}")
    }

    var viewerCount: Int { streams.withLock { $0.count } }

    /// The streams `account` has open, on every board.
    func streamCount(account: String) -> Int {
        streams.withLock { $0.values.count { $0.viewer.account == account } }
    }

    /// Closes the streams of `account` on `board` (nil: on every board): they lost their place there.
    func disconnect(account: String, board: String? = nil) {
        close { $0.account == account && (board == nil || $0.board == board) }
    }

    /// The signed-in viewers now.
    var signedInViewers: [Viewer] { streams.withLock { $0.values.map(\.viewer).filter { $0.signIn != nil } } }

    /// Closes the streams of sign-ins that ended (signed out, or ended by another process).
    func disconnect(signIns ended: Set<String>) {
        close { $0.signIn.map(ended.contains) ?? false }
    }

    /// Closes the streams whose viewer `matches`.
    func close(where matches: (Viewer) -> Bool) {
        let closing = streams.withLock { $0.values.filter { matches($0.viewer) }.map(\.stream) }
        for stream in closing { stream.close() }
    }
}
