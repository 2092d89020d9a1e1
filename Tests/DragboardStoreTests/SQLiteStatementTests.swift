@testable import DragboardStore
import Dragboard
import Foundation
import GRDB
import Testing

/// The SQLite engine binds and steps its statements through SQLite's own API on GRDB's cached
/// statements: every value type goes in and comes out as GRDB would bind and read it, a failing
/// statement fails as GRDB's would, and the cached statement serves the next call.
@Suite struct SQLiteStatementTests {
    @Test func everyValueTypeGoesInAndComesOutAsItWas() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)")
            let connection = SQLiteConnection(db)
            let blob = Data([0, 1, 255, 0])
            try connection.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [1, "Tom 🐈 \"quoted\"", 2.5, blob])
            try connection.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [2, nil, nil, nil])
            let rows = try connection.rows(sql: "SELECT id, name, score, data FROM t WHERE id >= ? ORDER BY id", arguments: [1])
            #expect(rows.map(\.values) == [[.integer(1), .text("Tom 🐈 \"quoted\""), .real(2.5), .blob(blob)], [.integer(2), .null, .null, .null]])
            #expect(rows.first?.columns == ["id", "name", "score", "data"])
            // What GRDB itself reads of the same rows.
            #expect(try String.fetchOne(db, sql: "SELECT name FROM t WHERE id = 1") == "Tom 🐈 \"quoted\"")
            #expect(try Data.fetchOne(db, sql: "SELECT data FROM t WHERE id = 1") == blob)
        }
    }

    @Test func aFailingStatementFailsAsGRDBsWouldAndItsStatementServesTheNextCall() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            let connection = SQLiteConnection(db)
            let insert = "INSERT INTO t (id, name) VALUES (?, ?)"
            try connection.execute(sql: insert, arguments: [1, "a"])
            #expect {
                try connection.execute(sql: insert, arguments: [2, "a"])
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
            }
            // The wrong number of arguments is refused before anything runs.
            #expect(throws: DatabaseError.self) { try connection.execute(sql: insert, arguments: [3]) }
            try connection.execute(sql: insert, arguments: [3, "b"])
            #expect(try connection.rows(sql: "SELECT name FROM t WHERE id > ? ORDER BY id", arguments: [0]).map(\.values) == [[.text("a")], [.text("b")]])
        }
    }

    /// Savepoints inside a transaction are prepared statements too: one that fails takes back its own
    /// work only (nested ones within it too), one that succeeds leaves its work to the transaction.
    @Test func aSavepointThatFailsInsideAnOperationTakesBackOnlyItsOwnWork() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        struct ChangedItsMind: Error {}
        _ = try t.store.perform(operationID: "savepoints", fingerprint: "f") { tx in
            try tx.setTitle("a", "Kept")
            try tx.atomically { try tx.setTitle("e", "Released") }
            do {
                try tx.atomically {
                    try tx.setTitle("b", "Taken back")
                    try tx.atomically { try tx.setTitle("c", "Taken back with it") }
                    throw ChangedItsMind()
                }
            } catch is ChangedItsMind {}
            try tx.setTitle("d", "After")
            return ""
        }
        #expect(try t.store.items(["a", "b", "c", "d", "e"]).map(\.title) == ["Kept", "B", "C", "After", "Released"])
        // Outside a transaction, a savepoint opens one (GRDB's way), and a failure rolls it back whole.
        t.store.dbPool.writeWithoutTransaction { db in
            let connection = SQLiteConnection(db)
            #expect(throws: ChangedItsMind.self) {
                try connection.inSavepoint {
                    try connection.execute(sql: "UPDATE item SET title = ? WHERE id = ?", arguments: ["Never", "a"])
                    throw ChangedItsMind()
                }
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try t.store.items(["a"]).map(\.title) == ["Kept"])
    }

    /// A write outside a transaction is refused: SQLite may end one on an error (a full disk), and
    /// what the operation writes after that must not commit statement by statement.
    @Test func aWriteAfterSQLiteEndedTheTransactionIsRefused() throws {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'before')")
            let connection = SQLiteConnection(db)
            try db.execute(sql: "BEGIN IMMEDIATE")
            try connection.execute(sql: "UPDATE t SET name = ? WHERE id = ?", arguments: ["inside", 1])
            try db.execute(sql: "ROLLBACK")  // as SQLite ends a transaction on some errors
            #expect(throws: DatabaseError.self) { try connection.execute(sql: "UPDATE t SET name = ? WHERE id = ?", arguments: ["after", 1]) }
            #expect(try connection.rows(sql: "SELECT name FROM t WHERE id = ?", arguments: [1]).map(\.values) == [[.text("before")]])
        }
    }
}
