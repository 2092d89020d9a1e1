import CMicroHTTPD
import Glibc
import Synchronization

/// Notices event-stream clients that left, when they leave.
///
/// A stream waiting for its next event has its connection suspended, and libmicrohttpd does not watch a
/// suspended connection's socket: a closed tab would be seen only when the next heartbeat fails to send,
/// holding one of its address's stream slots until then (a person reloading a few times hit the cap). Each
/// stream's socket is also in an epoll set of its own here, asking only for the peer's hang-up; ``departed()``
/// collects, without waiting, the streams whose clients left.
final class StreamHangups: Sendable {
    private struct Watched {
        var next: UInt64 = 1
        var streams: [UInt64: EventStream] = [:]
    }

    private let epoll: Int32
    private let watched = Mutex(Watched())

    init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    }

    deinit {
        if epoll >= 0 { close(epoll) }
    }

    /// Watches `socket` for its peer hanging up. Closing the socket (libmicrohttpd does, when the
    /// connection ends) removes it from the set by itself.
    /// - Returns: The token to ``forget(_:)`` it with, or `nil` when it could not be watched.
    func watch(_ stream: EventStream, socket: Int32) -> UInt64? {
        guard epoll >= 0, socket >= 0 else { return nil }
        return watched.withLock { watched -> UInt64? in
            let token = watched.next
            guard cmhd_watch_hangup(epoll, socket, token) == 0 else { return nil }
            watched.next += 1
            watched.streams[token] = stream
            return token
        }
    }

    /// Stops reporting a stream (its response was released).
    func forget(_ token: UInt64) {
        _ = watched.withLock { $0.streams.removeValue(forKey: token) }
    }

    /// The streams whose clients hung up since the last call (each reported once).
    func departed() -> [EventStream] {
        guard epoll >= 0 else { return [] }
        var streams: [EventStream] = []
        var tokens = [UInt64](repeating: 0, count: 64)
        while true {
            let count = Int(cmhd_hangups(epoll, &tokens, Int32(tokens.count)))
            watched.withLock { watched in
                for token in tokens.prefix(count) {
                    if let stream = watched.streams.removeValue(forKey: token) { streams.append(stream) }
                }
            }
            if count < tokens.count { return streams }
        }
    }
}
