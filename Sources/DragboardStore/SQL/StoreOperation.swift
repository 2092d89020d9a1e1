import Dispatch

/// One client operation on its way to the engine's transaction (SQLite's group commit runs
/// several in one); its submitter waits until it is done, then calls `finish`.
package final class StoreOperation: @unchecked Sendable {
    /// Runs inside the transaction (the operation's savepoint is its own business). A throw fails
    /// this operation alone. Let go once the operation is done: it may borrow its submitter's
    /// non-escaping closures.
    package private(set) var run: ((any SQLConnection) throws -> Void)?
    /// The board the operation works on (engines that lock per board lock this one).
    package let board: String
    /// The client's operation id: an engine that locks the board may read its record in the same
    /// statement (``SQLConnection/lock(board:readingOperation:)``).
    package let id: String?
    // Written by the committing thread before `done` is signalled, read by the submitter after.
    package private(set) var failure: (any Error)?
    /// Whether this operation's thread commits the next batch (``GroupCommit``'s business).
    package var leads = false
    private let done = DispatchSemaphore(value: 0)

    package init(board: String, id: String? = nil, run: @escaping (any SQLConnection) throws -> Void) {
        self.board = board
        self.id = id
        self.run = run
    }

    package func fail(_ error: any Error) { if failure == nil { failure = error } }
    /// Forgets `run` (called by the submitter once `submit` returned).
    package func finish() { run = nil }
    package func wake() { done.signal() }
    package func wait() { done.wait() }
}
