import Dragboard
import Foundation
import Synchronization

/// Durable storage of boards, on one of two engines (see ``StoreEngine``): a SQLite file (the
/// embedded default) or a PostgreSQL database that several server instances share.
///
/// - An acknowledged operation is durable: on SQLite, WAL with `synchronous=FULL` (verified at
///   open); on PostgreSQL, a committed transaction.
/// - All methods are synchronous and thread-safe; reads never wait for writers. Call them from
///   worker threads, never while already inside a store call.
/// - Every change goes through ``perform(operationID:fingerprint:_:)``: one transaction (or
///   savepoint) per client operation, idempotent by operation id, that bumps the board version by
///   exactly one when it changed something. Operations on one board apply one after the other,
///   whichever instance runs them, so a board's versions are one sequence.
public final class BoardStore: Sendable {
    /// The board every store has from its creation: the one a database written before boards
    /// existed becomes, and the one calls that name no board mean.
    public static let defaultBoardID = BoardRecord.defaultID
    /// Its title until someone renames it.
    public static let defaultBoardTitle = "Demo board"
    /// Keys longer than this trigger a rebalance of their list or container.
    public static let maxKeyLength = 24

    /// The database and how it commits.
    let engine: any StoreEngine
    /// How long an operation id is remembered: a retry within this window is answered from the
    /// record, a later one is a new operation. Records hold a hash of the request and a response
    /// without HTML (a few hundred bytes), and only operations that changed the board are kept.
    public let operationRetention: TimeInterval
    /// When old operation records were last deleted.
    let pruning = Mutex(PruneSchedule())
    /// Whether an account has been seen (see ``hasAccounts()``).
    let accountsExist = Atomic<Bool>(false)
    /// Sign-ins, roles and "no accounts yet" as read at the engine's ``AccessWatch`` epoch.
    let accessMemory = Mutex(AccessMemory())
    /// Told how long each operation took from its submission to its commit (waiting for the
    /// database included), e.g. for metrics.
    let commitObserver = Mutex<CommitObserver?>(nil)

    /// A closure held in a struct: a bare closure in a `Mutex` is read through `inout` at the generic
    /// abstraction, and each read wrapped it in two reabstraction thunks written back into the mutex
    /// (a chain that grew with every commit).
    struct CommitObserver: Sendable {
        let observe: @Sendable (Duration) -> Void
    }

    /// Calls `observer` with the time of every operation from submission to commit.
    public func observeCommits(_ observer: @escaping @Sendable (Duration) -> Void) {
        commitObserver.withLock { $0 = CommitObserver(observe: observer) }
    }

    /// Opens (or creates) the SQLite store at `path` and migrates its schema. A PostgreSQL URL is
    /// refused here: `BoardStore(database:)` of the `DragboardPostgres` module opens one.
    ///
    /// - Parameter operationRetention: How long operation ids are remembered; 24 hours by default.
    /// - Throws: ``StoreError/invalid(_:)`` for a PostgreSQL URL, or if WAL or `synchronous=FULL`
    ///   did not take effect; the engine's error if the file cannot be opened.
    public convenience init(path: String, operationRetention: TimeInterval = 24 * 3600) throws {
        let scheme = path.prefix(while: { $0 != ":" }).lowercased()
        guard scheme != "postgres", scheme != "postgresql" else {
            throw StoreError.invalid("\(scheme):// names a PostgreSQL database: open it with BoardStore(database:) of DragboardPostgres")
        }
        try self.init(engine: SQLiteEngine(path: path), operationRetention: operationRetention)
    }

    /// A store on `engine` (the SQLite engine here, or another module's, such as PostgreSQL's).
    package init(engine: any StoreEngine, operationRetention: TimeInterval) throws {
        self.engine = engine
        self.operationRetention = operationRetention
        try pruneOperations(olderThan: Date() - operationRetention)
        try pruneUndoHistory(olderThan: Date() - Self.undoRetention)
    }

    /// Calls `handler` with each board and version that other server instances sharing this
    /// database commit, in commit order, from now on: on PostgreSQL, through `LISTEN`; never on
    /// SQLite, whose file one process owns.
    public func observeOtherInstances(_ handler: @escaping @Sendable (_ board: String, _ version: Int) -> Void) throws {
        try engine.observeOtherInstances(handler)
    }

    /// Whether other server instances may share this database (PostgreSQL), and so the image
    /// folder beside it.
    public var isShared: Bool { engine.isShared }

    /// Where the data lives, for logs (never with a password).
    public var databaseDescription: String { engine.description }

    /// The SQLite journal mode and synchronous level in effect on the connection that commits
    /// (for checks and diagnostics); nil on PostgreSQL.
    public func durabilitySettings() throws -> (journalMode: String, synchronous: Int)? {
        try (engine as? SQLiteEngine)?.durabilitySettings()
    }
}

/// Deleting expired operation records is cheap (an indexed range) but needless on every write.
struct PruneSchedule {
    var last = Date.distantPast
    static let interval: TimeInterval = 60

    mutating func isDue(at now: Date) -> Bool {
        guard now.timeIntervalSince(last) >= Self.interval else { return false }
        last = now
        return true
    }
}
