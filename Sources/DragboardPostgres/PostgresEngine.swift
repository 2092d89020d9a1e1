import DragboardStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The shared engine: one PostgreSQL database that several server instances use at once.
///
/// - Client operations run in transactions at PostgreSQL's default isolation, READ COMMITTED,
///   that first lock their board's row (`SELECT … FOR UPDATE`); those of this process waiting for
///   one board share one transaction (``commit(_:)``). Operations on one board therefore
///   apply one after the other whichever instance runs them: each reads the version and the rows
///   its predecessor committed, so versions form one sequence per board, an operation id is
///   looked up only once any earlier attempt with it committed or failed, and order keys are
///   computed from the current neighbours. SERIALIZABLE would add nothing the lock does not give,
///   only retries. A move that takes rows from another board raises that board's version in one
///   `UPDATE … RETURNING` under that board's row lock; a deferred unique constraint on
///   `(listID, scope, pos)` refuses two rows with one order key at commit, whatever happens.
/// - The bookkeeping of a change (the board's version, its undo entry, activity and operation record,
///   and its `pg_notify`) goes as one statement of data-modifying `WITH` clauses: one round trip
///   while the board's row is held, not six.
/// - Reads run in REPEATABLE READ, READ ONLY transactions: one snapshot for all their queries.
/// - An operation's answer is rendered inside its transaction, from exactly what it wrote.
final class PostgresEngine: StoreEngine {
    let pool: PostgresConnectionPool
    let url: PostgresURL
    private let dialect = PostgresDialect()
    private let logger: Logger
    /// This process among those sharing the database: its own notices are not news to it.
    let instance = UUID().uuidString
    let memos = BoardMemos()
    /// Told by the listener of changes to who may do what: only once ``observeOtherInstances(_:)`` listens.
    let accessWatch: AccessWatch? = AccessWatch()
    /// Where the database announces them (the triggers of `v6-access-notices`).
    static let accessChannel = "dragboard_access"
    private let listener = Mutex<PostgresChangeListener?>(nil)
    /// The operations waiting for a board's lock in this process, committed together (see ``commit(_:)``).
    let batches = BatchQueue()

    var description: String { "PostgreSQL \(url.redacted)" }
    /// Every instance given the same URL shares the database.
    var isShared: Bool { true }

    /// Connects to `url`, then creates or migrates the schema (one instance at a time).
    /// `answerDeadline`: how long a request waits for any one answer of PostgreSQL before it fails
    /// with ``StoreError/unavailable(_:)`` (503) and the connection is closed.
    init(url: PostgresURL, maximumConnections: Int = 16, answerDeadline: Duration = .seconds(4),
         logger: Logger = Logger(label: "dragboard.postgres")) throws {
        self.url = url
        self.logger = logger
        self.pool = try PostgresConnectionPool(url: url, maximumConnections: maximumConnections, answerDeadline: answerDeadline, logger: logger)
        try migrate()
    }

    deinit {
        listener.withLock { $0 }?.stop()
        pool.close()
    }

    func observeOtherInstances(_ handler: @escaping @Sendable (_ board: String, _ version: Int) -> Void) throws {
        let started = PostgresChangeListener(pool: pool, instance: instance, access: accessWatch, logger: logger) { handler($0.board, $0.version) }
        try started.start()
        listener.withLock { $0 = started }
    }

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// In autocommit: the query is its own snapshot, and a read needs no `COMMIT`.
    func readOne<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(nil, body)
    }

    /// `first` alone in autocommit (its own snapshot) and `body` from what the connection remembers of
    /// the state `first` found: one round trip instead of four. A `body` that asks the database
    /// anything (something not remembered) runs again, with `first`, in a read transaction.
    func readLeading<T>(_ first: (any SQLConnection) throws -> Void, _ body: (any SQLConnection) throws -> T) throws -> T {
        let answered: Result<T, any Error>? = try transaction(nil) { db in
            try first(db)
            guard let connection = db as? PostgresSQLConnection else { return Result { try body(db) } }
            connection.asksNothingMore = true
            defer { connection.asksNothingMore = false }
            let outcome = Result { try body(db) }
            // Asked, whatever `body` made of the refusal (a `try?` may have taken it for "none"): nothing
            // it concluded is kept for later transactions.
            guard !connection.askedMore else {
                connection.memo.forget()
                return nil
            }
            return outcome
        }
        if let answered { return try answered.get() }
        return try read { db in
            try first(db)
            return try body(db)
        }
    }

    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction("BEGIN", body)
    }


    /// Runs `body` between `begin` and `COMMIT` (`ROLLBACK` when it throws) on a pooled connection;
    /// with no `begin`, its one read in autocommit.
    /// A kept connection the server has closed since (a restart, a failover, an idle timeout) fails
    /// at `BEGIN`, before anything was asked of it: the pool drops it and the next one is tried.
    /// What a person is told while the database is away (the details go to the log).
    static let unreachable = "the database cannot be reached right now; nothing was changed, try again in a few seconds"

    func transaction<T>(_ begin: String?, _ body: (any SQLConnection) throws -> T) throws -> T {
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try pool.withConnection { pooled in
                    let db = PostgresSQLConnection(pooled, dialect: dialect, instance: instance, memos: memos, logger: logger)
                    do {
                        if let begin { try db.execute(sql: begin) }
                    } catch let unanswered as StoreError {
                        throw unanswered  // another connection to a server that does not answer would wait as long
                    } catch {
                        throw ClosedConnection(underlying: error)
                    }
                    // Writes and announcements not sent with the change's bookkeeping go now: one that fails rolls back.
                    let outcome = Result {
                        let value = try body(db)
                        if let doomed = db.doomed { throw doomed }  // its work failed part-way: nothing of it commits
                        try db.sendHeld()
                        return value
                    }
                    // No answer in time: the pool closes the connection, which rolls the transaction back.
                    guard !pooled.unanswered else { return outcome }
                    guard begin != nil else {
                        // A read that a closed connection refused changed nothing: the next connection is tried.
                        if case .failure(let error) = outcome, PostgresStoreError.isConnectionLoss(error) { throw ClosedConnection(underlying: error) }
                        if case .success = outcome { db.memo.publish(at: db.totalChangesCount) }
                        return outcome
                    }
                    switch outcome {
                    case .success:
                        do {
                            try db.execute(sql: "COMMIT")
                        } catch where PostgresStoreError.isConnectionLoss(error) {
                            throw PostgresConnectionClosed()  // committed or not: a retry of the operation id settles it
                        }
                    case .failure(let error):
                        // A ROLLBACK that fails on a lost connection changes nothing (the server rolled back
                        // when it went): the body's error is the one to answer with.
                        try? db.execute(sql: "ROLLBACK")
                        if PostgresStoreError.isConnectionLoss(error) { throw PostgresConnectionClosed() }
                    }
                    if case .success = outcome { db.memo.publish(at: db.totalChangesCount) }  // committed
                    return outcome
                }.get()
            } catch is PostgresConnectionClosed {
                // Ended by the server after `BEGIN` was answered: the transaction rolled back with it
                // (or, at a `COMMIT` that lost its answer, committed: a retry of the same operation id
                // is then answered from its record).
                logger.warning("PostgreSQL closed a connection in the middle of a transaction")
                throw StoreError.unavailable(Self.unreachable)
            } catch let closed as ClosedConnection {
                guard attempts <= pool.maximumConnections else {
                    logger.warning("PostgreSQL closed every connection: \(String(reflecting: closed.underlying).prefix(300))")
                    throw StoreError.unavailable(Self.unreachable)
                }
            } catch let error as PostgresStoreError where error.isContention {
                // Nothing was changed: a retry with the same operation id runs again (or is answered
                // from its record, if the other attempt was the one that committed).
                throw StoreError.conflict("Someone changed this board at the same moment; nothing was changed, try again.")
            }
        }
    }
}

/// `BEGIN` failed: the connection is unusable, and nothing was done on it.
private struct ClosedConnection: Error {
    let underlying: any Error
}
