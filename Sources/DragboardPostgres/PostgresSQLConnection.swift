import DragboardStore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A pooled PostgreSQL connection lent to the store's SQL for one transaction.
///
/// Calls block the calling thread until PostgreSQL answers, or at most the pool's deadline
/// (``PooledConnection/answer(_:)``): the store is synchronous and runs on libmicrohttpd's
/// threads, never on an event loop or in a task.
final class PostgresSQLConnection: SQLConnection {
    let pooled: PooledConnection
    var connection: PostgresConnection { pooled.connection }
    let dialect: PostgresDialect
    private let logger: Logger
    private(set) var changesCount = 0
    private(set) var totalChangesCount = 0
    let memo: ReadMemo
    /// Why this transaction can only roll back: work of ``inSavepoint(_:)`` failed after it wrote
    /// (the engine then rolls back instead of committing, and the operation fails with this).
    private(set) var doomed: (any Error)?
    /// Set where the transaction's one statement was sent (``PostgresEngine/readLeading(_:_:)``): any
    /// other throws ``NotRemembered``.
    var asksNothingMore = false
    /// A statement was refused since ``asksNothingMore`` was set.
    private(set) var askedMore = false
    struct NotRemembered: Error {}
    /// ``announce(board:version:)``'s notices, not sent yet.
    private var announcements: [String] = []
    /// ``executeSoon(_:)``'s writes, not sent yet: the first clauses of the next ``executeTogether(_:)``,
    /// or sent on their own before any other statement.
    private var held: [SQLWrite] = []

    /// Who announces this connection's changes (see ``ChangeNotice``).
    private let instance: String

    init(_ pooled: PooledConnection, dialect: PostgresDialect, instance: String = "", memos: BoardMemos? = nil, logger: Logger) {
        self.pooled = pooled
        self.memo = ReadMemo(shared: memos)
        self.dialect = dialect
        self.instance = instance
        self.logger = logger
    }

    /// Reads the version (and incarnation) as it locks the row: the operation's first read of it costs
    /// no round trip, and the operation starts from what an earlier transaction left of the board at
    /// that version. What this transaction read before may have been changed by the board's last
    /// holder (a move that takes rows from another board locks it after reading them): it is forgotten.
    func lock(board: String, readingOperation operation: String?) throws {
        try lock(board: board, readingOperations: operation.map { [$0] } ?? [])
    }

    /// ``lock(board:readingOperation:)`` for a batch: the records of all of `operations` come with
    /// the lock, in the same round trip.
    func lock(board: String, readingOperations operations: [String]) throws {
        memo.forget()
        let found: [SQLRow]
        if operations.isEmpty {
            found = try rows(sql: "SELECT \(boardMarkColumns) FROM board WHERE id = ? FOR UPDATE", arguments: [board])
        } else {
            let ids = Array(repeating: "?", count: operations.count).joined(separator: ", ")
            found = try rows(sql: """
                SELECT \(boardMarkColumns), operation.id, operation.fingerprint, operation.response, operation.version
                FROM board LEFT JOIN operation ON operation.id IN (\(ids)) WHERE board.id = ? FOR UPDATE OF board
                """, arguments: SQLArguments((operations + [board]).map { $0 as (any SQLValueConvertible)? }))
        }
        guard let row = found.first else { return }
        memo.remember(Optional(row[0] as Int), for: ReadMemo.versionKey(board), at: totalChangesCount, scope: .board(board))
        memo.found(board: board, row: row, stamp: totalChangesCount)
        guard !operations.isEmpty else { return }
        keepRecords(of: operations, from: found, at: 4)
    }

    /// Reads the records of `operations` (those that joined a batch once it held its board) in one
    /// statement, kept as the lock keeps those it reads.
    func readRecords(of operations: [String]) throws {
        guard !operations.isEmpty else { return }
        let ids = Array(repeating: "?", count: operations.count).joined(separator: ", ")
        let found = try rows(sql: "SELECT id, fingerprint, response, version FROM operation WHERE id IN (\(ids))", arguments: SQLArguments(operations))
        keepRecords(of: operations, from: found, at: 0)
    }

    /// Keeps the record of each of `operations` found in `rows` (id, fingerprint, response and
    /// version from column `column`; none: no record), for ``BoardStore`` to find without asking.
    private func keepRecords(of operations: [String], from rows: [SQLRow], at column: Int) {
        var records: [String: OperationRecord] = [:]
        for row in rows {
            if let id = row[column] as String? {
                records[id] = OperationRecord(fingerprint: row[column + 1], response: row[column + 2], version: row[column + 3])
            }
        }
        for operation in operations {
            memo.remember(records[operation], for: OperationRecord.memoKey(operation), at: totalChangesCount, scope: .operations)
        }
    }

    /// The transaction that wrote the row version read: no other can find a board at a version and
    /// this writer before that transaction committed.
    var boardWriterColumn: String { "board.xmin::text" }
    /// The (sub)transaction that wrote the board row's new version, as `xmin` shows it.
    private(set) var writer: String?

    /// An operation of a batch (``PostgresEngine/commit(_:)``) without a `SAVEPOINT`, as
    /// ``inSavepoint(_:)``: one that fails before writing leaves the others be; one that fails after
    /// writing dooms the transaction, and the engine runs the others again without it.
    func inOperation<T>(_ body: () throws -> T) throws -> T {
        try inSavepoint(body)
    }

    /// `NOTIFY` inside the transaction: PostgreSQL delivers it only if the transaction commits,
    /// and delivers the notices of all transactions in the order they committed. Sent with the
    /// next ``executeTogether(_:)``, or by ``sendHeld()`` at the end of the transaction's
    /// work: where in the transaction it is made does not matter, and it costs no round trip of its own.
    func announce(board: String, version: Int) throws {
        announcements.append(ChangeNotice(instance: instance, board: board, version: version).payload)
    }

    /// The writes held and the announcements made and not sent yet, in one statement (the engine's
    /// last of a transaction, and the first of any other statement while writes are held).
    func sendHeld() throws {
        guard !announcements.isEmpty || !held.isEmpty else { return }
        try executeTogether([])
    }

    /// Held until the next statement: a drop's `UPDATE item` then goes with its bookkeeping. Nothing
    /// reads before it is sent (``rows(sql:arguments:)`` and every other statement send it first), and
    /// it reads nothing the bookkeeping writes.
    func executeSoon(_ write: SQLWrite) throws {
        guard !asksNothingMore else { askedMore = true; throw NotRemembered() }
        held.append(write)
        totalChangesCount += 1
    }

    /// One statement: each write a data-modifying `WITH` clause (all of them see the snapshot the
    /// statement starts from, as ``SQLConnection/executeTogether(_:)`` asks of its writes), the
    /// announcements `pg_notify` calls in the `SELECT` that ends it, in the order they were made.
    func executeTogether(_ newWrites: [SQLWrite]) throws {
        let writes = held + newWrites  // counted when they were held
        held.removeAll()
        guard !writes.isEmpty || !announcements.isEmpty else { return }
        // The row that takes the board's new version says which (sub)transaction wrote it: what this
        // transaction leaves in `BoardMemos` is found under that name (no round trip of its own).
        let clauses = writes.indices.map { "w\($0) AS (\(writes[$0].sql)\(writes[$0].setsBoardVersion ? " RETURNING xmin::text AS writer" : ""))" }
        let named = writes.firstIndex { $0.setsBoardVersion }
        let notices = Array(repeating: "pg_notify(?, ?)", count: announcements.count)
        let sql = (clauses.isEmpty ? "" : "WITH " + clauses.joined(separator: ", ") + " ")
            + "SELECT " + ((named.map { ["(SELECT writer FROM w\($0))"] } ?? []) + notices + (named == nil && notices.isEmpty ? ["1"] : [])).joined(separator: ", ")
        var arguments: SQLArguments = []
        arguments.values = writes.flatMap(\.arguments.values)
        for payload in announcements { arguments.values += [.text(ChangeNotice.channel), .text(payload)] }
        announcements.removeAll()
        let answer = try runTyped(sql, arguments)
        if !newWrites.isEmpty { totalChangesCount += 1 }
        if named != nil, case .text(let id)? = answer.first?.values.first { writer = id }
    }

    func execute(sql: String, arguments: SQLArguments) throws {
        _ = try run(sql, arguments)
    }

    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        guard !asksNothingMore else { askedMore = true; throw NotRemembered() }
        if !held.isEmpty { try sendHeld() }
        if let prepared = try preparedQuery(for: sql) { return try execute(prepared, arguments, sql: sql) }
        return try Self.sqlRows(try run(sql, arguments).rows, format: nil)
    }

    /// Work that is undone whole if it throws, without a `SAVEPOINT` (a round trip, while the board is
    /// held): work that throws before writing anything leaves nothing to undo; work that throws after
    /// writing (or whose statement PostgreSQL refused, which aborts the transaction anyway) dooms the
    /// transaction, which then rolls back whole rather than commit part of that work.
    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        let written = totalChangesCount, announced = announcements.count, heldBefore = held.count
        do {
            return try body()
        } catch {
            // What the failed work announced or wrote and did not send yet goes with it.
            if announcements.count > announced { announcements.removeSubrange(announced...) }
            if held.count > heldBefore { held.removeSubrange(heldBefore...) }
            if doomed == nil, totalChangesCount != written || error is PostgresStoreError {
                doomed = error
                memo.forget()
            }
            throw error
        }
    }

    private func run(_ sql: String, _ arguments: SQLArguments) throws -> PostgresQueryResult {
        guard !asksNothingMore else { askedMore = true; throw NotRemembered() }
        if !held.isEmpty { try sendHeld() }
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let int): binds.append(int)
            case .real(let double): binds.append(double)
            case .text(let string): binds.append(string)
            case .blob(let data): binds.append(ByteBuffer(bytes: data))
            }
        }
        let query = PostgresQuery(unsafeSQL: dialect.translate(sql), binds: binds)
        let result: PostgresQueryResult
        do {
            result = try pooled.answer { [connection, logger] in connection.query(query, logger: logger) }
        } catch let error as PSQLError {
            throw PostgresStoreError(error, sql: query.sql)
        }
        switch result.metadata.command {
        case "INSERT", "UPDATE", "DELETE":
            changesCount = result.metadata.rows ?? 0
            totalChangesCount += changesCount
        default:
            break
        }
        return result
    }

    /// A cell as a SQLite-shaped value: integers, reals, text and bytes, as the store reads them.
    static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8:
            return .integer(Int64(try cell.decode(Int.self)))
        case .float4, .float8:
            return .real(try cell.decode(Double.self))
        case .bool:
            return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea:
            let buffer = try cell.decode(ByteBuffer.self)
            return .blob(Data(buffer.readableBytesView))
        default:
            return .text(try cell.decode(String.self))
        }
    }
}

/// A statement PostgreSQL refused, with what it said (PostgresNIO's own description leaves it out).
struct PostgresStoreError: Error, CustomStringConvertible {
    /// The SQLSTATE code (`23505` for a unique violation, `40P01` for a deadlock…).
    let code: String?
    let message: String
    let sql: String
    /// The connection went away under the statement (closed by either side, or the server shutting
    /// down or not yet started): nothing more can be done on it, and the transaction did not commit,
    /// unless this was its `COMMIT`, whose answer was lost.
    let isConnectionLoss: Bool

    init(_ error: PSQLError, sql: String) {
        code = error.serverInfo?[.sqlState]
        message = error.serverInfo?[.message] ?? "\(error.code)"
        self.sql = sql
        isConnectionLoss = Self.isConnectionLoss(error)
    }

    /// Whether `error` (wrapped or straight from PostgresNIO) says the connection went away.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let error = error as? PostgresStoreError { return error.isConnectionLoss }
        // The socket itself failing (reset, closed) surfaces as NIO's errors, unwrapped.
        if error is PostgresConnectionClosed || error is IOError || error is ChannelError { return true }
        let sayingGone: (String?) -> Bool = { state in state.map { $0.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains($0) } ?? false }
        switch error as? PostgresError {
        case .connectionClosed?: return true
        case .server(let message)?: return sayingGone(message.fields[.sqlState])
        default: break
        }
        guard let error = error as? PSQLError else { return false }
        let lostCodes: [PSQLError.Code] = [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed]
        return lostCodes.contains(error.code) || sayingGone(error.serverInfo?[.sqlState])
    }

    /// Two transactions met (a deadlock, a serialization failure, two rows given one order key):
    /// PostgreSQL rolled this one back, and it may simply be tried again.
    var isContention: Bool { ["40P01", "40001", "23505"].contains(code ?? "") }

    var description: String { "PostgreSQL \(code ?? "-"): \(message) in \(sql)" }
}
