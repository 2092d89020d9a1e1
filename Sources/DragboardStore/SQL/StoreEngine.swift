/// The database under a ``BoardStore``: how it reads, writes and commits client operations.
///
/// Two engines implement it: ``SQLiteEngine`` (one file, the embedded default) and, in the
/// `DragboardPostgres` module, `PostgresEngine` (one PostgreSQL database shared by several server
/// instances). The store's SQL, its rules and its tests are the same on both.
package protocol StoreEngine: Sendable {
    /// What transactions read of each board, for the next ones that find it at the same version
    /// (each connection's ``ReadMemo`` starts from it and, once its transaction commits, adds to it).
    var memos: BoardMemos { get }
    /// Runs `body` on a consistent snapshot, never waiting for a writer.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body`, which asks ONE query, outside any transaction where the engine can: one
    /// statement is its own consistent snapshot, and a server that speaks over the network is
    /// spared the `BEGIN` and `COMMIT` around it (two of the three round trips).
    func readOne<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `first`, which asks ONE query, then `body`, on one consistent snapshot. An engine that
    /// speaks over the network runs `first` alone in autocommit and `body` on what it remembers of
    /// the board `first` found; should `body` ask anything of the database, both run again in a read
    /// transaction (``read(_:)``).
    func readLeading<T>(_ first: (any SQLConnection) throws -> Void, _ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` in one durable write transaction, rolled back if it throws.
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs one client operation in a durable transaction and returns once it committed (its
    /// own failure, if any, is in the operation). The engine locks `operation.board` first, so
    /// operations on one board apply one after the other, whichever process runs them.
    func commit(_ operation: StoreOperation)
    /// Calls `handler` with each board and version other processes sharing the database commit,
    /// in commit order, from now on (never, where one process owns the database).
    func observeOtherInstances(_ handler: @escaping @Sendable (_ board: String, _ version: Int) -> Void) throws
    /// What this process hears of other processes' changes to who may do what, where it can hear
    /// them (nil: the database tells of none; every request then asks it).
    var accessWatch: AccessWatch? { get }
    /// Where the data lives, for logs (never with a password).
    var description: String { get }
    /// Whether other server instances may share this database (and so the image folder beside it).
    var isShared: Bool { get }
}

extension StoreEngine {
    package var accessWatch: AccessWatch? { nil }

    /// An embedded engine's transactions cost no round trips: a read is as good.
    package func readOne<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try read(body)
    }

    /// An embedded engine's transactions cost no round trips: one read transaction.
    package func readLeading<T>(_ first: (any SQLConnection) throws -> Void, _ body: (any SQLConnection) throws -> T) throws -> T {
        try read { db in
            try first(db)
            return try body(db)
        }
    }
}
