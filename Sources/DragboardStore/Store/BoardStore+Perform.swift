import Dragboard
import Foundation
import Passwords
import Synchronization

extension BoardStore {
    /// Runs `body` in ONE durable transaction, exactly once per operation id, and returns once
    /// that transaction is on disk.
    ///
    /// Operations submitted while another commit is under way share the next transaction (group
    /// commit: one `fsync` for all), each in a savepoint of its own and applied in order, so each
    /// still sees every earlier one and behaves exactly as if it ran alone.
    ///
    /// - If `operationID` was already committed with the same `fingerprint`,
    ///   returns its stored response with `replayed == true` and runs nothing;
    ///   with a different fingerprint it throws ``StoreError/operationReused(_:)``.
    /// - Otherwise runs `body`. If the transaction changed any row the board
    ///   version increments by one (once per operation, whatever the body did),
    ///   and the operation is recorded with `stored(response)` (a compact form
    ///   the caller can expand again on a replay) and the new version.
    /// - An operation that changed nothing is not recorded and leaves the
    ///   version alone: a retry simply runs again, and refused requests cost no
    ///   storage. Records older than ``operationRetention`` are pruned.
    /// - Any throw rolls back everything this operation did (its savepoint), including its
    ///   operation record, so a failed operation may be retried with the same id; the other
    ///   operations of its batch commit.
    ///
    /// `fingerprint` should be a digest of the request (see ``fingerprint(of:)``); it is
    /// computed only when a record is read or written, never for a refusal.
    public func perform(
        board: String = BoardStore.defaultBoardID,
        operationID: String,
        fingerprint: @autoclosure () -> String,
        stored: (String) -> String = { $0 },
        _ body: (BoardTransaction) throws -> String
    ) throws -> OperationResult {
        try perform(board: board, operationID: operationID, fingerprint: fingerprint(), stored: stored, prepare: { _ in }, body)
    }

    /// ``perform(board:operationID:fingerprint:stored:_:)`` with `prepare` run first in the
    /// transaction, only when the operation is new (creating the board it works on, say).
    ///
    /// With `render`, an operation that changed the board (or a replay) answers with what
    /// `render(state, stored response)` makes instead of the stored response. `render` reads what
    /// it needs in the operation's transaction, exactly at its state (a later operation of its batch
    /// may change the same rows before the commit), and returns the formatting (HTML, JSON), which
    /// runs on the caller's thread after the commit: it never holds up the next writer. A failed
    /// render fails the answer, not the operation, which stays committed (a retry replays it).
    package func perform(
        board: String,
        operationID: String,
        fingerprint: @autoclosure () -> String,
        stored: (String) -> String,
        prepare: (any SQLConnection) throws -> Void,
        committed render: (@Sendable (BoardTransaction, String) throws -> @Sendable () -> String)? = nil,
        _ body: (BoardTransaction) throws -> String
    ) throws -> OperationResult {
        guard !operationID.isEmpty else { throw StoreError.invalid("empty operation id") }
        var output: OperationResult?
        var format: Result<@Sendable () -> String, any Error>?
        // Runs on whichever thread commits the batch while this one waits in `submit`: whose undo
        // history a change goes to is said by the body itself (`recordUndo(for:actionName:)`).
        func run(_ db: any SQLConnection) throws {
            let (result, changed) = try apply(board: board, operationID: operationID, fingerprint: fingerprint, stored: stored, prepare: prepare, body, db: db)
            if let render, changed || result.replayed {
                format = Result {
                    // A new change holds the board's lock: its version is the board's now.
                    let version = result.replayed ? try StoreQueries.version(db, board: board) : result.version
                    return try render(BoardTransaction(db: db, boardID: board, baseVersion: version), result.response)
                }
            }
            // What it knows of the board now is the next transactions' to start from, once this one commits.
            if changed { db.memo.leave(board: board, version: result.version, writer: db.writer, at: db.totalChangesCount) }
            output = result
        }
        try withoutActuallyEscaping(run) { run in
            for attempt in 1...2 {
                let operation = StoreOperation(board: board, id: operationID, run: run)
                let submitted = ContinuousClock.now
                engine.commit(operation)
                commitObserver.withLock { $0 }?.observe(ContinuousClock.now - submitted)
                operation.finish()
                guard let failure = operation.failure else { return }
                // A retry that waited for the board while its first attempt held it read no record with the
                // lock, and ran again: a change then fails on the record's id. Once more, it is a replay.
                guard attempt == 1, engine.isShared, (try? engine.readOne({ try OperationRecord.read(operationID, $0) })) != nil else {
                    throw failure
                }
                output = nil
                format = nil
            }
        }
        guard var result = output else { throw StoreError.invalid("transaction produced no result") }
        if let format { result.response = try format.get()() }
        return result
    }

    /// One operation inside a batch's transaction, in a savepoint of its own: a throw rolls back
    /// this operation alone (its changes and its record), never the others of the batch.
    private func apply(board: String, operationID: String, fingerprint: () -> String, stored: (String) -> String,
                       prepare: (any SQLConnection) throws -> Void, _ body: (BoardTransaction) throws -> String,
                       db: any SQLConnection) throws -> (OperationResult, changed: Bool) {
        var result: OperationResult?
        var changed = false
        func replay(_ record: OperationRecord) throws -> OperationResult {
            guard record.fingerprint == fingerprint() else { throw StoreError.operationReused(operationID) }
            return OperationResult(response: record.response, version: record.version, replayed: true)
        }
        try db.inOperation {
            // Read with the board's lock where the engine can (one round trip fewer while it is held).
            let readWithLock = db.remembered(OperationRecord.memoKey(operationID), as: OperationRecord?.self)
            if let record = try readWithLock ?? OperationRecord.read(operationID, db) {
                result = try replay(record)
                return
            }
            try prepare(db)
            let tx = BoardTransaction(db: db, boardID: board, baseVersion: try StoreQueries.version(db, board: board))
            let response = try body(tx)
            guard tx.hasChanges else {
                // What was read with the lock is as of before waiting for it: a first attempt of this
                // operation that held it and committed meanwhile is answered now (a change is refused
                // its record's id instead, see `perform`).
                if readWithLock != nil, let record = try OperationRecord.read(operationID, db) {
                    result = try replay(record)
                    return
                }
                result = OperationResult(response: response, version: tx.baseVersion, replayed: false)
                return
            }
            let now = Date()
            // The bookkeeping of the change, written together (one round trip on PostgreSQL): none of
            // these statements reads a row another of them writes.
            try db.announce(board: board, version: tx.newVersion)
            // What it changed, for the other processes sharing the database (``VersionStep``).
            let step = db.memo.step(of: board, to: tx.newVersion, at: db.totalChangesCount)?.encoded
            var bookkeeping = [SQLWrite(Self.setVersionSQL, [tx.newVersion, now.timeIntervalSince1970, step, board], setsBoardVersion: true)]
            if tx.journal.isRecording { bookkeeping += try Self.undoWrites(tx.journal, board: board, at: now) }
            if let note = tx.activityNote.entry {
                // A change that deleted its board (a deletion, an undone creation) leaves no activity: it went with the board.
                bookkeeping.append(SQLWrite("""
                    INSERT INTO activity (boardID, version, author, words, createdAt)
                    SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM board WHERE id = ?)
                    """, [board, tx.newVersion, note.author, note.words, now.timeIntervalSince1970, board]))
            }
            bookkeeping.append(SQLWrite("""
                INSERT INTO operation (id, fingerprint, response, version, createdAt)
                VALUES (?, ?, ?, ?, ?)
                """, [operationID, fingerprint(), stored(response), tx.newVersion, now]))
            let stamp = db.totalChangesCount
            try db.executeTogether(bookkeeping)
            var departures: [OperationResult.Departure] = []
            for (other, items) in tx.departures.itemsByBoard.sorted(by: { $0.key < $1.key }) {
                // Read and raised in one statement: another instance may be changing that board
                // right now, and its lock (not this transaction's snapshot) decides the order.
                let version = try Self.advanceVersion(db, board: other, at: now)
                try db.announce(board: other, version: version)
                departures.append(.init(board: other, version: version, items: items))
            }
            if pruning.withLock({ $0.isDue(at: now) }) {
                try db.execute(sql: "DELETE FROM operation WHERE createdAt < ?", arguments: [now - operationRetention])
                try db.execute(sql: "DELETE FROM undoEntry WHERE createdAt < ?", arguments: [now - Self.undoRetention])
            }
            // The bookkeeping writes only boards' versions, the undo history, the activity and operation
            // records: what the transaction read of the rows holds (the answer reads them), and so do
            // the records of the batch's other operations read with the lock.
            db.memo.bookkept(board: board, version: tx.newVersion, from: stamp, to: db.totalChangesCount,
                             except: Set(([board] + departures.map(\.board)).map(ReadMemo.versionKey) + [OperationRecord.memoKey(operationID)]))
            result = OperationResult(response: response, version: tx.newVersion, replayed: false, departures: departures)
            changed = true
            return
        }
        guard let result else { throw StoreError.invalid("transaction produced no result") }
        return (result, changed)
    }

    /// A fingerprint of a request: its SHA-256, so a record never holds the request itself.
    public static func fingerprint(of request: some Collection<UInt8>) -> String {
        SHA256.hex(request)
    }

    /// Fills the default board when it has no list: creates the lists with their rows (appended in
    /// order) and the contents of container rows (`containers`: container item id →
    /// contents; containers must have explicit ids). Does nothing if any list exists.
    /// Seeding commits as one changing operation (version 0 → 1).
    public func seedIfEmpty(_ lists: [(ListRecord, [NewItem])], containers: [String: [NewItem]] = [:]) throws {
        try seedIfEmpty(BoardSeed(lists: lists, containers: containers))
    }

    /// Lays down a kit's ``BoardSeed`` when the default board has no list (see ``seedIfEmpty(_:containers:)``).
    public func seedIfEmpty(_ seed: BoardSeed) throws {
        let lists = seed.lists, containers = seed.containers
        try engine.write { db in
                let board = Self.defaultBoardID
                // Instances starting together on one database seed it once.
                try db.lock(board: board)
                guard try db.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM list WHERE boardID = ?", arguments: [board]) == 0 else { return }
                let base = try StoreQueries.version(db, board: board)
                let tx = BoardTransaction(db: db, boardID: board, baseVersion: base)
                for (list, _) in lists {
                    try db.execute(
                        sql: "INSERT INTO list (id, title, kind, position, boardID) VALUES (?, ?, ?, ?, ?)",
                        arguments: [list.id, list.title, list.kind, list.position, board])
                }
                for (list, items) in lists where !items.isEmpty {
                    try tx.insert(items, at: Placement(listID: list.id))
                }
                // Containers may sit inside other containers: fill those that exist, until done.
                var pending = containers.filter { !$0.value.isEmpty }
                while !pending.isEmpty {
                    let ready = try pending.keys.sorted().compactMap { try StoreQueries.item(db, $0) }
                    guard !ready.isEmpty else { throw StoreError.unknownItem(pending.keys.sorted()[0]) }
                    for container in ready {
                        try tx.insert(pending[container.id] ?? [], at: Placement(listID: container.listID, containerID: container.id))
                        pending[container.id] = nil
                    }
                }
                if !lists.isEmpty { try Self.setVersion(db, base + 1, board: board, at: nil) }
        }
    }

    /// Deletes operation records older than `date` (retries after that are new
    /// operations); returns how many were removed.
    @discardableResult
    public func pruneOperations(olderThan date: Date) throws -> Int {
        try engine.write { db in
            try db.execute(sql: "DELETE FROM operation WHERE createdAt < ?", arguments: [date])
            return db.changesCount
        }
    }

    /// Sets a board's version and, when `date` is given, its last activity.
    static func setVersion(_ db: any SQLConnection, _ version: Int, board: String, at date: Date?) throws {
        try db.cachedStatement(sql: setVersionSQL).execute(arguments: [version, date?.timeIntervalSince1970, nil, board])
    }

    /// A board's version, its last activity unless that is NULL, and what the change was
    /// (``VersionStep``'s text, or NULL: not told) (arguments: version, activity, change, board).
    static let setVersionSQL = "UPDATE board SET version = ?, activity = COALESCE(?, activity), changed = ? WHERE id = ?"

    /// Raises a board's version by one and sets its last activity; returns the new version.
    static func advanceVersion(_ db: any SQLConnection, board: String, at date: Date) throws -> Int {
        guard let version = try db.fetchOne(Int.self, sql: "UPDATE board SET version = version + 1, activity = ? WHERE id = ? RETURNING version",
                                            arguments: [date.timeIntervalSince1970, board]) else {
            throw StoreError.unknownBoard(board)
        }
        return version
    }
}
