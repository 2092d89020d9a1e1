import DragboardStore
import NIOCore

/// PostgreSQL (or the way to it) gave no answer within the store's deadline.
struct PostgresDeadlineExceeded: Error {}

/// The connection closed while a request waited for its answer (the server ended it).
struct PostgresConnectionClosed: Error {}

extension EventLoopFuture where Value: Sendable {
    /// Blocks until the future completes, or fails with ``PostgresDeadlineExceeded`` once
    /// `deadline` has passed.
    ///
    /// The store's threads wait on every query; a bare `wait()` could hold one forever, since
    /// PostgresNIO never completes a query written to a channel that closed at that moment, and a
    /// server that stopped answering (a frozen host, a lost network) leaves it waiting too. The
    /// caller closes the connection after a deadline: whatever it was doing is unknown.
    func wait(atMost deadline: TimeAmount) throws -> Value {
        let answer = eventLoop.makePromise(of: Value.self)
        let expiry = eventLoop.scheduleTask(in: deadline) { answer.fail(PostgresDeadlineExceeded()) }
        cascade(to: answer)  // whichever comes first completes it; the other is ignored
        defer { expiry.cancel() }
        return try answer.futureResult.wait()
    }
}
