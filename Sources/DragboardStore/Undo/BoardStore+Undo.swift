import Dragboard
import Foundation

/// What an undo or redo did: the entry it took, and the operation's result.
public struct UndoOutcome: Sendable {
    /// The board the change was on (it may be gone: undoing the creation of a board).
    public var board: String
    public var actionName: String
    public var result: OperationResult
}

extension BoardStore {
    /// Entries kept per owner: the newest ones; older ones are forgotten.
    public static let undoLimit = 100
    /// Entries older than this are forgotten (30 days), and so are files only they refer to.
    public static let undoRetention: TimeInterval = 30 * 24 * 3600

    /// The statements that write the operation's journal as the owner's newest entry, in the
    /// operation's transaction: a new change clears the owner's redo stack (as `UndoManager` does),
    /// and only the newest ``undoLimit`` entries are kept. None reads what another writes, so they run
    /// together (``SQLConnection/executeTogether(_:)``): the history is cut to ``undoLimit`` − 1
    /// entries beside the new one going in.
    static func undoWrites(_ journal: UndoJournal, board: String, at now: Date) throws -> [SQLWrite] {
        guard let owner = journal.owner else { return [] }
        let forgetRedo = SQLWrite(forgetRedoSQL, [owner])
        guard !journal.overflowed, !journal.changes.isEmpty else { return [forgetRedo] }
        return [forgetRedo,
                SQLWrite(trimHistorySQL, [owner, owner, undoLimit - 1]),
                SQLWrite("INSERT INTO undoEntry (owner, board, actionName, changes, createdAt) VALUES (?, ?, ?, ?, ?)",
                         [owner, board, journal.actionName, try UndoChange.encoded(journal.changes), now])]
    }

    /// A new change forgets what its owner could redo (arguments: owner).
    static let forgetRedoSQL = "DELETE FROM undoEntry WHERE owner = ? AND undone = 1"
    /// Keeps the owner's newest done entries, as many as the last argument says (arguments: owner,
    /// owner, count): newest first in the order of `undoEntry_owner_undone`, which both this and the
    /// redo cleanup walk instead of sorting the history.
    static let trimHistorySQL = """
        DELETE FROM undoEntry WHERE owner = ? AND undone = 0
            AND seq <= (SELECT seq FROM undoEntry WHERE owner = ? AND undone = 0 ORDER BY seq DESC LIMIT 1 OFFSET ?)
        """

    /// Forgets undo entries older than `date`; returns how many.
    @discardableResult
    public func pruneUndoHistory(olderThan date: Date) throws -> Int {
        try engine.write { db in
            try db.execute(sql: "DELETE FROM undoEntry WHERE createdAt < ?", arguments: [date])
            return db.changesCount
        }
    }

    /// What `owner` can undo and redo on `board` (nil: on any board, newest first).
    public func undoState(owner: String, board: String? = nil) throws -> UndoState {
        try engine.read { db in
            UndoState(undoActionName: try Self.entry(db, owner: owner, board: board, redo: false)?.actionName,
                      redoActionName: try Self.entry(db, owner: owner, board: board, redo: true)?.actionName)
        }
    }

    /// How many entries `owner` has (undoable and redoable together).
    public func undoCount(owner: String) throws -> Int {
        try engine.read { try $0.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM undoEntry WHERE owner = ?", arguments: [owner]) ?? 0 }
    }

    package struct UndoEntry {
        var seq: Int64
        var board: String
        package var actionName: String
        var changes: String
    }

    /// The entry an undo takes (the newest done one) or a redo takes (the oldest undone one:
    /// a new change removes undone entries, so they are always the newest).
    package static func entry(_ db: any SQLConnection, owner: String, board: String?, redo: Bool) throws -> UndoEntry? {
        let order = redo ? "seq ASC" : "seq DESC"
        let row = try db.row(sql: """
            SELECT seq, board, actionName, changes FROM undoEntry
            WHERE owner = ? AND undone = ? AND (CAST(? AS TEXT) IS NULL OR board = ?) ORDER BY \(order) LIMIT 1
            """, arguments: [owner, redo ? 1 : 0, board, board])
        return row.map { UndoEntry(seq: $0[0], board: $0[1], actionName: $0[2], changes: $0[3]) }
    }

    /// Takes back (or, with `redo`, does again) `owner`'s newest change on `board` (nil: on any
    /// board) as one operation like any other: one transaction, idempotent by `operationID`,
    /// the board's version +1. The inverse is applied to the board as it is now; when a row it
    /// touches is no longer as the change left it (someone moved, renamed or deleted it since)
    /// nothing changes, the entry is dropped from the history, and this throws
    /// ``StoreError/conflict(_:)`` with the reason in words. `imageAvailable` says whether an
    /// image's file can still be brought back; `respond` writes the response from what changed.
    /// - Throws: ``StoreError/conflict(_:)`` also when there is nothing to undo or redo.
    package func undo(owner: String, board: String?, redo: Bool, operationID: String,
              imageAvailable: (String) -> Bool,
              respond: (BoardTransaction, UndoEffects, String) throws -> String) throws -> UndoOutcome {
        let found = try engine.read { try Self.entry($0, owner: owner, board: board, redo: redo) }
        var taken: (entry: UndoEntry, changes: [UndoChange])?
        let fingerprint = Self.fingerprint(of: Array("\(redo ? "redo" : "undo")\u{1F}\(owner)\u{1F}\(board ?? "")".utf8))
        do {
            let result = try perform(board: found?.board ?? board ?? Self.defaultBoardID, operationID: operationID, fingerprint: fingerprint,
                                     stored: { $0 }, prepare: { db in
                guard let found, let entry = try Self.entry(db, owner: owner, board: board, redo: redo), entry.seq == found.seq else {
                    throw StoreError.conflict(found == nil ? "There is nothing to \(redo ? "redo" : "undo")." : "Your history changed meanwhile; try again.")
                }
                let changes = try JSONDecoder().decode([UndoChange].self, from: Data(entry.changes.utf8))
                taken = (entry, changes)
                let exists = try db.fetchOne(Int.self, sql: "SELECT 1 FROM board WHERE id = ?", arguments: [entry.board]) != nil
                if !exists, Self.restoredBoard(changes, redo: redo) == nil {
                    throw UndoRefusal(reason: "its board was deleted by someone else since")
                }
                // A board that comes back must exist before the operation reads its version.
                if let state = Self.restoredBoard(changes, redo: redo) {
                    try db.execute(sql: "INSERT INTO board (id, title, version, activity, incarnation) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                                   arguments: [state.id, state.title, state.version, Date().timeIntervalSince1970, BoardMemos.newIncarnation()])
                }
            }) { tx in
                guard let taken else { throw StoreError.invalid("no undo entry") }
                let effects = try tx.revert(taken.changes, undo: !redo, imageAvailable: imageAvailable)
                if !effects.rekeyed.isEmpty { try Self.rekey(tx.db, owner: owner, effects.rekeyed) }
                try tx.db.execute(sql: "UPDATE undoEntry SET undone = ? WHERE seq = ?", arguments: [redo ? 0 : 1, taken.entry.seq])
                return try respond(tx, effects, taken.entry.actionName)
            }
            return UndoOutcome(board: found?.board ?? board ?? Self.defaultBoardID, actionName: taken?.entry.actionName ?? found?.actionName ?? "",
                               result: result)
        } catch let refusal as UndoRefusal {
            // It will never apply again: drop it, so the next undo reaches the change before it.
            if let found { try engine.write { try $0.execute(sql: "DELETE FROM undoEntry WHERE seq = ?", arguments: [found.seq]) } }
            throw StoreError.conflict("Cannot \(redo ? "redo" : "undo") “\(found?.actionName ?? "")”: \(refusal.reason); nothing was changed.")
        }
    }

    /// A row that came back with a new order key: every state of the owner's history that has
    /// it at its old key gets the new one, so the owner's next undo or redo finds it as expected.
    static func rekey(_ db: any SQLConnection, owner: String, _ rekeyed: [String: (old: String, new: String)]) throws {
        for row in try db.rows(sql: "SELECT seq, changes FROM undoEntry WHERE owner = ?", arguments: [owner]) {
            let seq: Int64 = row[0]
            var changes = try JSONDecoder().decode([UndoChange].self, from: Data((row[1] as String).utf8))
            var touched = false
            func fix(_ state: inout UndoItemState?) {
                guard let id = state?.record.id, let keys = rekeyed[id], state?.record.pos == keys.old else { return }
                state?.record.pos = keys.new
                touched = true
            }
            for index in changes.indices {
                guard case .item(var before, var after) = changes[index] else { continue }
                fix(&before)
                fix(&after)
                changes[index] = .item(before: before, after: after)
            }
            guard touched else { continue }
            try db.execute(sql: "UPDATE undoEntry SET changes = ? WHERE seq = ?",
                           arguments: [String(decoding: try JSONEncoder().encode(changes), as: UTF8.self), seq])
        }
    }

    /// The board an undo (or redo) brings back, if its first step does.
    private static func restoredBoard(_ changes: [UndoChange], redo: Bool) -> UndoBoardState? {
        for change in redo ? changes : changes.reversed() {
            if case .board(let before, let after) = change, (redo ? before : after) == nil { return redo ? after : before }
        }
        return nil
    }
}

extension BoardStore {
    /// Takes back `owner`'s newest change on `board` (nil: anywhere), as
    /// ``BoardService/undoManager(forBrowser:board:)`` does but without rendering or telling
    /// viewers (and without moving image files: a service keeps those).
    /// - Throws: ``StoreError/conflict(_:)`` with the reason when it no longer applies, or when
    ///   there is nothing to undo.
    @discardableResult
    public func undo(owner: String, board: String? = nil, operationID: String = UUID().uuidString) throws -> UndoOutcome {
        try undo(owner: owner, board: board, redo: false, operationID: operationID, imageAvailable: { _ in true }) { _, _, action in action }
    }

    /// Does again `owner`'s most recently undone change on `board` (nil: anywhere).
    @discardableResult
    public func redo(owner: String, board: String? = nil, operationID: String = UUID().uuidString) throws -> UndoOutcome {
        try undo(owner: owner, board: board, redo: true, operationID: operationID, imageAvailable: { _ in true }) { _, _, action in action }
    }

    /// The board `owner`'s next undo (or redo) anywhere would change, if any: where a caller
    /// checks the person may still change it before taking it back.
    public func nextUndoBoard(owner: String, redo: Bool) throws -> String? {
        try engine.read { try Self.entry($0, owner: owner, board: nil, redo: redo)?.board }
    }
}
