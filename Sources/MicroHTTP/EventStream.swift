import CMicroHTTPD
import Glibc
import Synchronization

/// A Server-Sent Events stream to one client.
///
/// Return `Response(body: .eventStream { stream in … })` from a handler; the closure receives the stream once
/// the response is queued. Keep the stream and call ``send(event:id:data:)`` from any thread:
/// ```swift
/// router.get("/events") { _ in
///     Response(body: .eventStream { stream in
///         hub.subscribe(stream)
///         stream.onClose { hub.unsubscribe(stream) }
///     })
/// }
/// ```
/// The server sends a `: ping` comment every heartbeat interval so dead clients are noticed, and closes every
/// stream on ``HTTPServer/stop()``.
///
/// While libmicrohttpd has the connection suspended (everything sent, waiting for more) an event is
/// written to the socket at once, without waking libmicrohttpd: one `send` per viewer, which is what
/// makes a change to a board with thousands of viewers cheap. The body is unframed (no chunks), so what
/// the socket does not take at once is left to libmicrohttpd, resumed, to send when it can.
public final class EventStream: Sendable {
    struct State {
        var buffer: [UInt8] = []
        /// The connection is suspended by the reader, waiting for data.
        var suspended = false
        /// The reader has handed libmicrohttpd bytes: once it suspends after that, libmicrohttpd has
        /// sent them and the response's head before them (it asks for more only when all is sent).
        var headSent = false
        /// No more data is accepted; the reader ends the response once the buffer is drained.
        var closed = false
        /// libmicrohttpd released the response: the client left or the stream ended.
        var finished = false
        /// `MHD_resume_connection` calls started outside the lock and not yet returned.
        var resumesInFlight = 0
        var onClose: [@Sendable () -> Void] = []
    }

    /// Bytes a slow client may leave unread before the stream is closed.
    static let maxBufferedBytes = 1 << 20

    private let state = Mutex(State())
    private let connection: ConnectionHandle
    /// The connection's socket (-1: unknown, every byte goes through libmicrohttpd).
    private let socket: Int32
    private let registry: StreamRegistry

    init(connection: ConnectionHandle, socket: Int32 = -1, registry: StreamRegistry) {
        self.connection = connection
        self.socket = socket
        self.registry = registry
    }

    /// Sends one event. Multi-line `data` becomes several `data:` lines; line breaks in `event` and `id` are
    /// removed. Does nothing once the stream is closed. Thread-safe.
    /// - Parameters:
    ///   - event: The event type (`event:` field); `nil` for the default `message`.
    ///   - id: The event id (`id:` field), echoed by browsers in `Last-Event-ID` on reconnect.
    ///   - data: The payload.
    public func send(event: String? = nil, id: String? = nil, data: String) {
        send(ServerSentEvent(event: event, id: id, data: data))
    }

    /// Sends an event formatted once, e.g. the same change to every viewer of a board. Thread-safe.
    public func send(_ event: ServerSentEvent) {
        enqueue(event.bytes)
    }

    /// Sends an SSE comment line (ignored by browsers), e.g. a heartbeat.
    func sendComment(_ comment: String) {
        enqueue(Array((": " + ServerSentEvent.singleLine(comment) + "\n\n").utf8))
    }

    /// Ends the stream after the pending events are sent. Idempotent; thread-safe.
    public func close() {
        let resume = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            return Self.takeSuspension(&state)
        }
        if resume { resumeConnection() }
    }

    /// Whether the stream no longer accepts events (closed by the app, the server, or the client leaving).
    public var isClosed: Bool {
        state.withLock { $0.closed || $0.finished }
    }

    /// Registers `handler` to run once the stream's connection is finished (client left, ``close()``, or server
    /// stop). Runs immediately if that already happened. Handlers run on a libmicrohttpd thread; keep them short.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.onClose.append(handler)
            return false
        }
        if runNow { handler() }
    }

    private func enqueue(_ bytes: [UInt8]) {
        let resume = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            if state.suspended, state.headSent, state.buffer.isEmpty, socket >= 0 {
                // libmicrohttpd sent everything and sleeps: the socket is this stream's alone.
                let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
                let failure = sent < 0 ? errno : 0
                if sent == bytes.count { return false }
                if sent < 0, failure != EAGAIN, failure != EWOULDBLOCK {
                    state.closed = true  // the client went: libmicrohttpd, resumed, ends the response
                } else {
                    state.buffer.append(contentsOf: bytes[max(0, sent)...])  // the rest when the socket takes it
                }
                return Self.takeSuspension(&state)
            }
            if state.buffer.count + bytes.count > Self.maxBufferedBytes {
                state.closed = true  // the client does not keep up: end the stream after what is queued
            } else {
                state.buffer.append(contentsOf: bytes)
            }
            return Self.takeSuspension(&state)
        }
        if resume { resumeConnection() }
    }

    /// Clears the suspended flag and counts the resume the caller must perform after unlocking.
    private static func takeSuspension(_ state: inout State) -> Bool {
        guard state.suspended else { return false }
        state.suspended = false
        state.resumesInFlight += 1
        return true
    }

    private func resumeConnection() {
        MHD_resume_connection(connection.raw)
        state.withLock { $0.resumesInFlight -= 1 }
    }

    /// Whether no resume is in progress (checked by the server before `MHD_stop_daemon`).
    var isQuiet: Bool {
        state.withLock { $0.resumesInFlight == 0 && !$0.suspended }
    }
}

extension EventStream {
    /// The content-reader step: copies pending bytes, ends the stream once closed and drained, or suspends the
    /// connection until ``send(event:id:data:)`` or ``close()`` resumes it.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state -> Int in
            if !state.buffer.isEmpty {
                let count = min(capacity, state.buffer.count)
                state.buffer.withUnsafeBytes { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: count)
                }
                state.buffer.removeFirst(count)
                state.headSent = true
                return count
            }
            if state.closed || state.finished {
                return Int(MHD_CONTENT_READER_END_OF_STREAM)
            }
            // Suspend while holding the lock, so a concurrent `send` can only resume after the suspension.
            state.suspended = true
            MHD_suspend_connection(connection.raw)
            return 0
        }
    }

    /// Called when libmicrohttpd releases the response; runs the `onClose` handlers once.
    func finish() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.finished = true
            state.closed = true
            state.buffer = []
            defer { state.onClose = [] }
            return state.onClose
        }
        registry.remove(self)
        for handler in handlers { handler() }
    }
}

extension String {
    /// The string with CRLF and lone CR line breaks turned into LF.
    func replacingCRLF() -> String {
        guard contains("\r") else { return self }
        return split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n")
            .split(separator: "\r", omittingEmptySubsequences: false).joined(separator: "\n")
    }
}
