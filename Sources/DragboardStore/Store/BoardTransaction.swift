import Dragboard

/// The write side of one operation, handed to the body of
/// ``BoardStore/perform(operationID:fingerprint:_:)``.
///
/// Only valid inside that closure (it wraps the open GRDB connection); not
/// `Sendable`. Each mutating method is atomic on its own: when it throws it
/// has changed nothing (SQLite: a savepoint), or, on PostgreSQL, if it threw
/// after writing, the whole operation fails (no savepoint's round trip); a
/// throw out of the closure rolls back the whole operation.
///
/// Rows that a mutating method changes are stamped with ``newVersion``.
public struct BoardTransaction {
    package let db: any SQLConnection
    /// The board this operation reads and changes: its lists are the only lists it knows.
    public let boardID: String
    /// Board version before this operation.
    public let baseVersion: Int
    /// Other boards whose rows this operation took away (a move across boards): their versions
    /// advance too, so their viewers learn of it.
    let departures: Departures
    /// What this operation did, for the undo history (recorded only when the body asks).
    let journal: UndoJournal
    /// What the board's activity will say of this change, if it changes anything.
    let activityNote = ActivityNote()
    /// How many rows this operation's rebalances re-keyed.
    let rebalancedRows = Tally()
    /// The last row whose index this transaction counted (see ``rowBound(at:in:)``).
    let knownRow = Box<KnownRow?>(nil)

    /// SQLite's count of changed rows when the operation began.
    private let changesAtStart: Int

    init(db: any SQLConnection, boardID: String, baseVersion: Int) {
        self.db = db
        self.boardID = boardID
        self.baseVersion = baseVersion
        self.departures = Departures()
        self.journal = UndoJournal()
        self.changesAtStart = db.totalChangesCount
    }

    /// The version this operation commits as if it changes anything.
    public var newVersion: Int { baseVersion + 1 }

    /// Whether this operation has written any row so far: SQLite's own count, so a move onto
    /// the spot an item already has is no change, whatever the caller meant to do.
    public var hasChanges: Bool { db.totalChangesCount != changesAtStart }

    /// The version the board has after this operation if it ended now.
    public var resultingVersion: Int { hasChanges ? newVersion : baseVersion }

    /// All lists ordered by `position, id`.
    public func lists() throws -> [ListRecord] {
        try StoreQueries.lists(db, board: boardID)
    }

    /// Rows of a list (or of a container row inside it) in display order.
    /// - Throws: ``StoreError/unknownList(_:)``, ``StoreError/unknownItem(_:)`` for
    ///   a missing container, ``StoreError/invalid(_:)`` if the container is in another list.
    public func rows(in listID: String, container: String? = nil) throws -> [ItemRecord] {
        try StoreQueries.requireList(db, listID, board: boardID)
        if let container { _ = try StoreQueries.requireContainer(db, container, in: listID) }
        // A long list is not kept past this transaction (memory): any write makes it old.
        return try db.memoized(MemoKey("rows \(listID)\u{1F}\(container ?? "")"), scope: { $0.count > ReadMemo.largestKeptRows ? .anything : .list(listID) }) {
            try StoreQueries.rows(db, listID: listID, containerID: container)
        }
    }

    /// The item with this id. - Throws: ``StoreError/unknownItem(_:)``.
    public func item(_ id: String) throws -> ItemRecord {
        try StoreQueries.requireItem(db, id)
    }

    /// Reads the rows `ids` at once (a missing one as missing): asking for each of them by id
    /// afterwards costs no query until this transaction writes.
    public func prefetchItems(_ ids: [String]) throws {
        try prefetchItems(ids, indexed: [:], leaving: [:])
    }

    /// Items with `changedVersion > version` (changes committed after `version`,
    /// plus this operation's own changes so far). Deleted items are not reported.
    public func changedSince(_ version: Int) throws -> [ItemRecord] {
        try StoreQueries.changedSince(db, version, board: boardID)
    }

    /// Deletes items (and, through the foreign key cascade, their contents).
    /// - Throws: ``StoreError/unknownItem(_:)`` before deleting anything.
    public func delete(_ ids: [String]) throws {
        try atomically {
            for id in ids { _ = try StoreQueries.requireItem(db, id) }
            try journalDeletion(of: ids)
            let statement = db.cachedStatement(sql: "DELETE FROM item WHERE id = ?")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    /// Renames an item (no write, and so no new version, if the title is unchanged).
    public func setTitle(_ id: String, _ title: String) throws {
        let item = try StoreQueries.requireItem(db, id)
        guard item.title != title else { return }
        let before = try journal.isRecording ? itemState(id) : nil
        try db.cachedStatement(sql: "UPDATE item SET title = ?, changedVersion = ? WHERE id = ?")
            .execute(arguments: [title, newVersion, id])
        if journal.isRecording { journal.append(.item(before: before, after: try itemState(id))) }
    }

    /// Runs `work` so that a throw leaves nothing half-applied (``SQLConnection/inSavepoint(_:)``: on
    /// PostgreSQL, work that fails after writing fails its whole operation).
    func atomically<T>(_ work: () throws -> T) throws -> T {
        try db.inSavepoint(work)
    }
}

/// Items that left other boards during one operation, by board (internal bookkeeping of a
/// transaction; never shared across threads).
final class Departures {
    private(set) var itemsByBoard: [String: [String]] = [:]

    func record(_ itemID: String, from board: String) {
        itemsByBoard[board, default: []].append(itemID)
    }

    /// Another board changed in a way its viewers learn by catching up (an undo across boards).
    func touch(_ board: String) {
        if itemsByBoard[board] == nil { itemsByBoard[board] = [] }
    }
}

/// A count kept by one transaction (internal bookkeeping; never shared across threads).
final class Tally {
    private(set) var total = 0
    private(set) var largest = 0

    func add(_ count: Int) {
        total += count
        largest = max(largest, count)
    }
}

/// A row whose display index a transaction counted, and SQLite's change count at that moment.
struct KnownRow {
    var listID: String
    var containerID: String?
    var index: Int
    var bound: OrderBound
    var changes: Int
}

/// A value a transaction keeps between its calls (internal bookkeeping; never shared across threads).
final class Box<Value> {
    var value: Value

    init(_ value: Value) { self.value = value }
}
