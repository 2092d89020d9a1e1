import Foundation
import GRDB
import GRDBSQLite

/// The hot statements' binding and stepping, through SQLite's own API on GRDB's prepared and
/// cached statements: GRDB's `Row` cursor builds a dictionary of lowercased column names for every
/// query, and its `StatementArguments` a key path (together about 20k instructions a statement,
/// more than SQLite's own work for most of them).
extension SQLiteConnection {
    /// The rows `sql` answers with `arguments`, each value as the store's SQL reads it.
    func step(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        let statement = try db.cachedStatement(sql: sql)
        let handle = try bound(statement, sql, arguments)
        defer { sqlite3_reset(handle) }
        // The store writes only inside transactions. One SQLite ended on an error (a full disk, say)
        // must not let the writes after it commit one by one, as GRDB's own statements would refuse.
        if sqlite3_stmt_readonly(handle) == 0, sqlite3_get_autocommit(db.sqliteConnection) != 0 {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql)
        }
        let columns = statement.columnNames
        let count = sqlite3_column_count(handle)
        var rows: [SQLRow] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return rows
            case SQLITE_ROW:
                var values: [SQLValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<count { values.append(DatabaseValue(sqliteStatement: handle, index: index).sqlValue) }
                rows.append(SQLRow(columns: columns, values: values))
            case let code:
                throw failure(code, sql)
            }
        }
    }

    /// `statement` reset with `arguments` bound, as GRDB binds them (text and blobs copied).
    private func bound(_ statement: Statement, _ sql: String, _ arguments: SQLArguments) throws -> SQLiteStatement {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        guard sqlite3_bind_parameter_count(handle) == CInt(arguments.values.count) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
        }
        for (offset, value) in arguments.values.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt = switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let int): sqlite3_bind_int64(handle, index, Int64(int))
            case .real(let double): sqlite3_bind_double(handle, index, double)
            case .text(let string): sqlite3_bind_text(handle, index, string, -1, Self.transient)
            case .blob(let data): data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, CInt($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw failure(code, sql) }
        }
        return handle
    }

    private func failure(_ code: CInt, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
    }

    /// SQLite copies the bytes before the bind returns (`SQLITE_TRANSIENT`, a macro Swift does not import).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
