import Glibc
import Synchronization

/// Enforces the absolute request-head deadline that libmicrohttpd lacks.
///
/// libmicrohttpd's timeout is about inactivity, so a client trickling one header byte every few seconds
/// keeps a connection (and its per-IP and total slots) forever; thousands of them starve everyone else.
/// The tracker learns of every connection from libmicrohttpd's connection notifications, notes when its
/// request head is due, and ``reap(now:)`` shuts the socket of each connection still without a head
/// past that time. libmicrohttpd then reads end-of-stream and closes it through its usual path, so its
/// own bookkeeping (per-IP counts, pools) stays right.
final class ConnectionTracker: Sendable {
    private struct Tracked {
        let socket: Int32
        /// When the next request head must have arrived; `nil` while a request is being handled.
        var headDue: ContinuousClock.Instant?
    }

    private let deadline: Duration?
    private let connections = Mutex<[UInt: Tracked]>([:])
    private let closedByDeadline = Atomic<Int>(0)

    /// - Parameter deadline: The time a connection gets for each request head; `nil` disables reaping.
    init(deadline: Duration?) {
        self.deadline = deadline
    }

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`).
    func opened(_ connection: OpaquePointer, socket: Int32) {
        let due = deadline.map { ContinuousClock.now + $0 }
        connections.withLock { $0[Self.key(connection)] = Tracked(socket: socket, headDue: due) }
    }

    /// A request head arrived (first access-handler call): the connection now keeps only the inactivity timeout.
    func headArrived(_ connection: OpaquePointer) {
        connections.withLock { $0[Self.key(connection)]?.headDue = nil }
    }

    /// A request ended; a kept-alive connection gets a fresh deadline for its next head.
    func requestEnded(_ connection: OpaquePointer) {
        guard let deadline else { return }
        let due = ContinuousClock.now + deadline
        connections.withLock { $0[Self.key(connection)]?.headDue = due }
    }

    /// The connection is being closed (`MHD_CONNECTION_NOTIFY_CLOSED`). libmicrohttpd sends this before it
    /// closes the socket, so while the entry exists under the lock its socket number is still this connection's.
    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every connection whose head is overdue. The `shutdown` happens under the lock, so it
    /// cannot hit a socket number libmicrohttpd has already closed and reused.
    /// - Returns: How many connections were cut off by this call.
    @discardableResult
    func reap(now: ContinuousClock.Instant = .now) -> Int {
        let count = connections.withLock { connections -> Int in
            var count = 0
            for (key, tracked) in connections {
                guard let due = tracked.headDue, due <= now else { continue }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                connections[key]?.headDue = nil
                count += 1
            }
            return count
        }
        if count > 0 { closedByDeadline.add(count, ordering: .relaxed) }
        return count
    }

    /// Connections currently open.
    var openCount: Int { connections.withLock { $0.count } }

    /// Connections cut off by the head deadline since start.
    var reapedCount: Int { closedByDeadline.load(ordering: .relaxed) }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
