import Foundation

/// One database connection as the store's SQL sees it, inside a read or a write transaction,
/// whichever engine holds it (SQLite through GRDB, or PostgreSQL through PostgresNIO).
///
/// The store writes its SQL once, in SQLite's dialect with `?` placeholders; an engine that speaks
/// another dialect translates it. Values travel as ``SQLValue``s (null, integer, real, text,
/// blob), which both engines can bind and return.
/// Only valid inside the closure that lends it; not `Sendable`.
package protocol SQLConnection: AnyObject {
    /// Runs a statement that answers no rows.
    func execute(sql: String, arguments: SQLArguments) throws
    /// Every row a query answers, in order.
    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow]
    /// How many rows the last statement inserted, updated or deleted.
    var changesCount: Int { get }
    /// How many rows every statement on this connection has changed so far: two equal readings
    /// mean nothing was written in between.
    var totalChangesCount: Int { get }
    /// Answers this transaction read before (see ``ReadMemo``); a savepoint that rolls back forgets them.
    var memo: ReadMemo { get }
    /// Runs `body` so that a throw leaves nothing of it half-applied, and rethrows: SQLite rolls back
    /// to a savepoint and the transaction goes on; PostgreSQL, where a savepoint is a round trip, sends
    /// none, and a throw after `body` wrote makes the whole transaction roll back instead of commit.
    func inSavepoint<T>(_ body: () throws -> T) throws -> T
    /// Runs one client operation: in a savepoint where one transaction holds several (SQLite's group
    /// commit), as it is where the transaction is the operation's alone and a throw rolls it back whole
    /// (PostgreSQL: two statements fewer per operation).
    func inOperation<T>(_ body: () throws -> T) throws -> T
    /// Holds `board`'s row until the transaction ends: writers of that board wait for it (SQLite's
    /// one writer already excludes every other). An engine that sends the lock over a network reads
    /// the record of operation `readingOperation` in the same statement, kept as
    /// ``OperationRecord/memoKey(_:)`` says: as of before the lock was waited for, so a record its
    /// holder committed meanwhile is missing (``BoardStore`` looks again where that matters).
    func lock(board: String, readingOperation: String?) throws
    /// Tells the other processes sharing this database, once the transaction commits, that
    /// `board` is at `version` (nothing to do where one process owns the database).
    func announce(board: String, version: Int) throws
    /// The SQL expression, in a query of the `board` table (under that name, which other tables
    /// joined to it leave unambiguous), for the transaction that last wrote the row (PostgreSQL's
    /// `xmin`), as text; `''` where the engine cannot say (see ``BoardMark``).
    var boardWriterColumn: String { get }
    /// This transaction as ``boardWriterColumn`` names the board row it set the version of through
    /// ``executeTogether(_:)`` (nil before, where the engine names writers); `""` where it cannot say.
    var writer: String? { get }
    /// Runs statements that write, in order, none of which reads what another of them writes: an
    /// engine may send them as one (PostgreSQL: one statement, a round trip instead of one each,
    /// with the announcements made so far), and then they all see the rows as they were before.
    /// ``totalChangesCount`` counts at least one change afterwards; ``changesCount`` says nothing.
    func executeTogether(_ writes: [SQLWrite]) throws
    /// Runs a statement that changes one row and whose answer nobody reads: an engine that sends
    /// statements over a network may hold it and send it with the next one (PostgreSQL: as the first
    /// clause of the next ``executeTogether(_:)``, a round trip fewer while the board is held), always
    /// before anything else is asked. ``totalChangesCount`` counts it at once; ``changesCount`` says nothing.
    func executeSoon(_ write: SQLWrite) throws
}

/// A statement that writes and its arguments, run with others by ``SQLConnection/executeTogether(_:)``.
package struct SQLWrite {
    package let sql: String
    package let arguments: SQLArguments
    /// Whether this is the `UPDATE board` that sets a board's version: an engine that names writers
    /// (``SQLConnection/writer``) reads this transaction's name from the row it writes.
    package let setsBoardVersion: Bool

    package init(_ sql: String, _ arguments: SQLArguments, setsBoardVersion: Bool = false) {
        self.sql = sql
        self.arguments = arguments
        self.setsBoardVersion = setsBoardVersion
    }
}

extension SQLConnection {
    package func execute(sql: String) throws {
        try execute(sql: sql, arguments: [])
    }

    package func rows(sql: String) throws -> [SQLRow] {
        try rows(sql: sql, arguments: [])
    }

    /// The first row a query answers.
    package func row(sql: String, arguments: SQLArguments = []) throws -> SQLRow? {
        try rows(sql: sql, arguments: arguments).first
    }

    /// The first column of the first row, or nil when there is no row or it holds NULL.
    package func fetchOne<Value: SQLValueConvertible>(_ type: Value.Type, sql: String, arguments: SQLArguments = []) throws -> Value? {
        try row(sql: sql, arguments: arguments).flatMap { $0[0] }
    }

    /// The first column of every row (NULLs left out).
    package func fetchAll<Value: SQLValueConvertible>(_ type: Value.Type, sql: String, arguments: SQLArguments = []) throws -> [Value] {
        try rows(sql: sql, arguments: arguments).compactMap { $0[0] }
    }

    /// A statement the store runs often: engines keep it prepared on each connection.
    package func cachedStatement(sql: String) -> SQLStatement {
        SQLStatement(connection: self, sql: sql)
    }
}

/// A statement bound to a connection, run with different arguments (see
/// ``SQLConnection/cachedStatement(sql:)``).
package struct SQLStatement {
    package let connection: any SQLConnection
    package let sql: String

    package func execute(arguments: SQLArguments = []) throws {
        try connection.execute(sql: sql, arguments: arguments)
    }

    package func rows(arguments: SQLArguments = []) throws -> [SQLRow] {
        try connection.rows(sql: sql, arguments: arguments)
    }

    package func row(arguments: SQLArguments = []) throws -> SQLRow? {
        try connection.row(sql: sql, arguments: arguments)
    }

    package func fetchOne<Value: SQLValueConvertible>(_ type: Value.Type, arguments: SQLArguments = []) throws -> Value? {
        try connection.fetchOne(type, sql: sql, arguments: arguments)
    }
}

/// The values bound to a statement's `?` placeholders, in order.
package struct SQLArguments: ExpressibleByArrayLiteral {
    package var values: [SQLValue]

    package init(_ values: some Sequence<(any SQLValueConvertible)?>) {
        self.values = values.map { $0?.sqlValue ?? .null }
    }

    package init(arrayLiteral elements: (any SQLValueConvertible)?...) {
        self.init(elements)
    }
}

/// One row of a query's answer: its values by position or by column name.
package struct SQLRow {
    package let columns: [String]
    package let values: [SQLValue]

    package init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value at `index`; ask for an optional type (`String?`) where it may be NULL.
    /// - Precondition: it converts to `Value`.
    package subscript<Value: SQLValueConvertible>(_ index: Int) -> Value {
        guard let value = Value.fromSQLValue(values[index]) else {
            preconditionFailure("column \(index) holds \(values[index]), not a \(Value.self)")
        }
        return value
    }

    package subscript<Value: SQLValueConvertible>(_ column: String) -> Value {
        self[position(of: column)]
    }

    private func position(of column: String) -> Int {
        guard let index = columns.firstIndex(where: { $0.caseInsensitiveCompare(column) == .orderedSame }) else {
            preconditionFailure("no column \(column) in \(columns)")
        }
        return index
    }
}

extension SQLArguments {
    package init(_ values: some Sequence<some SQLValueConvertible>) {
        self.values = values.map(\.sqlValue)
    }
}

extension SQLConnection {
    /// Holds `board`'s row until the transaction ends (``lock(board:readingOperation:)``).
    func lock(board: String) throws {
        try lock(board: board, readingOperation: nil)
    }
}
