import Foundation
import GRDB

/// The embedded engine: one SQLite file through a GRDB `DatabasePool`.
///
/// - The file is opened in WAL mode with `synchronous=FULL`, so an acknowledged operation is
///   on disk (both are verified at open).
/// - Reads run concurrently on their own connections and never wait for the one writer (WAL
///   snapshots).
/// - Client operations that queue while a commit is under way share the next durable
///   transaction (``GroupCommit``).
/// - The log is copied back into the file beside the writer, not in its commits
///   (``WALCheckpointer``).
final class SQLiteEngine: StoreEngine {
    typealias Writer = DatabasePool

    let dbPool: DatabasePool
    let groupCommit: GroupCommit
    let memos = BoardMemos()
    /// Changes to who may do what, told to every process on the file (see ``AccessChanges``).
    let accessChanges: AccessChanges
    /// Checkpoints the log beside the writer, not in its commits (see ``WALCheckpointer``).
    let checkpointer: WALCheckpointer
    var accessWatch: AccessWatch? { accessChanges.watch }
    let description: String
    /// One process owns the file.
    var isShared: Bool { false }

    /// Opens (or creates) the file at `path` and migrates its schema.
    init(path: String) throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.label = "BoardStore"
        // GRDB's WAL set-up switches the writer to `synchronous=NORMAL` after
        // `prepareDatabase`, which would lose acknowledged commits on power loss:
        // set both pragmas on every connection, and the writer's again below.
        config.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        dbPool = try DatabasePool(path: path, configuration: config)
        accessChanges = try AccessChanges(beside: path)
        checkpointer = try WALCheckpointer(path: path)
        groupCommit = GroupCommit(writer: dbPool, memos: memos, accessChanges: accessChanges)
        description = "SQLite file \(path)"
        // The pool's writer runs GRDB's WAL set-up after `prepareDatabase`, which lowers it to
        // `synchronous=NORMAL`: raise the writer (the only connection that commits) again.
        try dbPool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let (mode, sync) = try durabilitySettings()
        guard mode.lowercased() == "wal" else { throw StoreError.invalid("journal_mode is \(mode), not wal") }
        guard sync == 2 else { throw StoreError.invalid("synchronous is \(sync), not FULL (2)") }
        try Self.migrator.migrate(dbPool)
        try dbPool.writeWithoutTransaction { [checkpointer] db in
            try accessChanges.install(on: db)
            checkpointer.install(on: db)
        }
    }

    deinit {
        // The writer's WAL hook holds the checkpointer unretained.
        dbPool.writeWithoutTransaction { [checkpointer] db in checkpointer.uninstall(from: db) }
    }

    /// The journal mode and synchronous level in effect on the connection that commits.
    func durabilitySettings() throws -> (journalMode: String, synchronous: Int) {
        try dbPool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
             try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }

    /// One snapshot for the whole of `body`: a deferred transaction of prepared statements on a
    /// reader (GRDB's `read` compiles its `BEGIN` and `COMMIT` again on every call).
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try dbPool.unsafeRead { db in
            try reading(db) { connection in
                try connection.inReadTransaction { try body(connection) }
            }
        }
    }

    /// One statement is its own snapshot in WAL mode: no `BEGIN` and `COMMIT` around it.
    func readOne<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try dbPool.unsafeRead { db in try reading(db, body) }
    }

    /// `body` on a reader, and what it read left for the next transactions.
    private func reading<T>(_ db: Database, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = SQLiteConnection(db, memos: memos)
        let value = try body(connection)
        connection.memo.publish(at: connection.totalChangesCount)
        return value
    }

    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        var written: (memo: ReadMemo, stamp: Int)?
        let value = try dbPool.writeWithoutTransaction { db in
            // Told while this write still holds the writer: the next one cannot take this one's note.
            defer { accessChanges.writeEnded() }
            var value: T?
            try db.inTransaction(.immediate) {
                let connection = SQLiteConnection(db, memos: memos)
                value = try body(connection)
                written = (connection.memo, connection.totalChangesCount)
                return .commit
            }
            return value!
        }
        if let written { written.memo.publish(at: written.stamp) }  // committed
        return value
    }

    /// One process owns the file: nobody else commits.
    func observeOtherInstances(_ handler: @escaping @Sendable (_ board: String, _ version: Int) -> Void) {}

    func commit(_ operation: StoreOperation) {
        groupCommit.submit(operation)
    }
}
