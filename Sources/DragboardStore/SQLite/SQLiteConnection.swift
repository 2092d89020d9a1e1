import GRDB
import GRDBSQLite

/// A GRDB connection lent to the store's SQL: statements with arguments are prepared once per
/// connection and reused (the hot queries of drags and drops run thousands of times).
final class SQLiteConnection: SQLConnection {
    let db: Database
    let memo: ReadMemo

    init(_ db: Database, memos: BoardMemos? = nil) {
        self.db = db
        self.memo = ReadMemo(shared: memos)
    }

    func execute(sql: String, arguments: SQLArguments) throws {
        if arguments.values.isEmpty {
            try db.execute(sql: sql)
        } else {
            _ = try step(sql, arguments)
        }
    }

    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        try step(sql, arguments)
    }

    /// A write transaction on SQLite excludes every other writer already.
    func lock(board: String, readingOperation: String?) {}

    /// SQLite keeps no writer per row; one process owns the file, and what a transaction leaves is
    /// shared once it commits.
    var boardWriterColumn: String { "''" }
    var writer: String? { "" }

    /// One process owns a SQLite file: its own viewers hear of every change directly.
    func announce(board: String, version: Int) {}

    /// One after the other: SQLite is in this process, and a statement costs no round trip.
    func executeTogether(_ writes: [SQLWrite]) throws {
        for write in writes { try execute(sql: write.sql, arguments: write.arguments) }
    }

    /// At once: nothing is saved by holding a statement in this process.
    func executeSoon(_ write: SQLWrite) throws {
        try execute(sql: write.sql, arguments: write.arguments)
    }

    // Read from SQLite itself: GRDB's getters first check, through the dispatch queue's specific
    // data, that they run on the connection's queue, which lending `db` to this closure already
    // ensures. The total is read before every remembered answer; the check cost more than the read.
    var changesCount: Int { Int(sqlite3_changes(db.sqliteConnection)) }
    var totalChangesCount: Int { Int(sqlite3_total_changes(db.sqliteConnection)) }

    func inOperation<T>(_ body: () throws -> T) throws -> T {
        try inSavepoint(body)
    }

    /// Inside a transaction (every operation, and every change within one), a savepoint of prepared
    /// statements: GRDB's compiles `SAVEPOINT` and `RELEASE` again each time (about 20k instructions
    /// a savepoint). Outside one, GRDB's, which opens a transaction instead.
    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        guard db.isInsideTransaction else { return try grdbSavepoint(body) }
        _ = try step(Self.savepoint, SQLArguments())
        do {
            let result = try body()
            // SQLite ended the whole transaction (a statement's error can): nothing to release.
            guard db.isInsideTransaction else { throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted") }
            _ = try step(Self.release, SQLArguments())
            return result
        } catch {
            if db.isInsideTransaction {
                // Rolled back to where it began, and released: the savepoint leaves no trace.
                _ = try? step(Self.rollback, SQLArguments())
                _ = try? step(Self.release, SQLArguments())
            }
            memo.forget()   // rolled back
            throw error
        }
    }

    /// `body` in a read transaction of prepared statements, ended however `body` ends (a reader goes
    /// back to its pool outside any transaction).
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        _ = try step(Self.beginRead, SQLArguments())
        defer {
            if (try? step(Self.commit, SQLArguments())) == nil, db.isInsideTransaction {
                _ = try? step(Self.rollbackAll, SQLArguments())
            }
        }
        return try body()
    }

    private static let beginRead = "BEGIN DEFERRED TRANSACTION"
    private static let commit = "COMMIT TRANSACTION"
    private static let rollbackAll = "ROLLBACK TRANSACTION"
    private static let savepoint = "SAVEPOINT dragboard"
    private static let release = "RELEASE SAVEPOINT dragboard"
    private static let rollback = "ROLLBACK TRANSACTION TO SAVEPOINT dragboard"

    private func grdbSavepoint<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        do {
            try db.inSavepoint {
                result = try body()
                return .commit
            }
        } catch {
            memo.forget()   // rolled back
            throw error
        }
        return result!
    }
}

extension DatabaseValue {
    /// The value as the store's SQL reads it.
    var sqlValue: SQLValue {
        switch storage {
        case .null: .null
        case .int64(let int): .integer(int)
        case .double(let double): .real(double)
        case .string(let string): .text(string)
        case .blob(let data): .blob(data)
        }
    }
}
