import Dispatch

/// One client operation on its way to the engine's transaction (SQLite's group commit runs
/// several in one); its submitter waits until it is done, then calls `finish`.
final class StoreOperation: @unchecked Sendable {
    /// Runs inside the transaction (the operation's savepoint is its own business). A throw fails
    /// this operation alone. Let go once the operation is done: it may borrow its submitter's
    /// non-escaping closures.
    private(set) var run: ((any SQLConnection) throws -> Void)?
    /// The board the operation works on (engines that lock per board lock this one).
    let board: String
    // Written by the committing thread before `done` is signalled, read by the submitter after.
    private(set) var failure: (any Error)?
    /// Whether this operation's thread commits the next batch (``GroupCommit``'s business).
    var leads = false
    private let done = DispatchSemaphore(value: 0)

    init(board: String, run: @escaping (any SQLConnection) throws -> Void) {
        self.board = board
        self.run = run
    }

    func fail(_ error: any Error) { if failure == nil { failure = error } }
    /// Forgets `run` (called by the submitter once `submit` returned).
    func finish() { run = nil }
    func wake() { done.signal() }
    func wait() { done.wait() }
}
