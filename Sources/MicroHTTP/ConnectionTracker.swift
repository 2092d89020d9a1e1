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
    /// One accepted connection. Its deadline is an atomic, so a request marks it without the tracker's lock
    /// or a dictionary lookup: the entry travels in libmicrohttpd's socket context and the request's state.
    final class Entry: Sendable {
        let socket: Int32
        /// When the next request head is due, in nanoseconds after the tracker's epoch; `Int64.max` while a
        /// request is being handled.
        fileprivate let headDue: Atomic<Int64>
        /// The length of the request target up to its first NUL, noted before libmicrohttpd splits off the query.
        let targetLength = Atomic<Int>(-1)

        fileprivate init(socket: Int32, headDue: Int64) {
            self.socket = socket
            self.headDue = Atomic(headDue)
        }
    }

    private static let none = Int64.max
    private let deadline: Duration?
    private let epoch = ContinuousClock.now
    private let connections = Mutex<[UInt: Entry]>([:])
    private let closedByDeadline = Atomic<Int>(0)

    /// - Parameter deadline: The time a connection gets for each request head; `nil` disables reaping.
    init(deadline: Duration?) {
        self.deadline = deadline
    }

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`).
    /// - Returns: Its entry, for ``headArrived(_:)`` and ``requestEnded(_:)``.
    func opened(_ connection: OpaquePointer, socket: Int32) -> Entry {
        let entry = Entry(socket: socket, headDue: due(after: .now))
        connections.withLock { $0[Self.key(connection)] = entry }
        return entry
    }

    /// A request head arrived (first access-handler call): the connection now keeps only the inactivity timeout.
    func headArrived(_ entry: Entry) {
        entry.headDue.store(Self.none, ordering: .relaxed)
    }

    /// A request ended; a kept-alive connection gets a fresh deadline for its next head.
    func requestEnded(_ entry: Entry) {
        guard deadline != nil else { return }
        entry.headDue.store(due(after: .now), ordering: .relaxed)
    }

    /// The connection is being closed (`MHD_CONNECTION_NOTIFY_CLOSED`). libmicrohttpd sends this before it
    /// closes the socket, so while the entry exists under the lock its socket number is still this connection's.
    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every connection whose head is overdue. The `shutdown` happens under the lock, so it
    /// cannot hit a socket number libmicrohttpd has already closed and reused; a head that arrives meanwhile
    /// wins the exchange of the deadline, and its connection is left alone.
    /// - Returns: How many connections were cut off by this call.
    @discardableResult
    func reap(now: ContinuousClock.Instant = .now) -> Int {
        let nanoseconds = Self.nanoseconds(now - epoch)
        let count = connections.withLock { connections -> Int in
            var count = 0
            for entry in connections.values {
                let due = entry.headDue.load(ordering: .relaxed)
                guard due <= nanoseconds,
                    entry.headDue.compareExchange(expected: due, desired: Self.none, ordering: .relaxed).exchanged
                else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
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

    private func due(after now: ContinuousClock.Instant) -> Int64 {
        guard let deadline else { return Self.none }
        return Self.nanoseconds(now + deadline - epoch)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
