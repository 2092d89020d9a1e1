import Dragboard
import Foundation

extension BoardStore {
    /// Every board, newest activity first (ties by id).
    public func boards() throws -> [BoardRecord] {
        try engine.read { db in
            try db.rows(sql: "SELECT \(BoardRecord.columns) FROM board ORDER BY activity DESC, id").map(BoardRecord.init(row:))
        }
    }

    /// The board with this id, if it exists.
    public func board(_ id: String) throws -> BoardRecord? {
        try engine.readOne { db in
            try db.row(sql: "SELECT \(BoardRecord.columns) FROM board WHERE id = ?", arguments: [id]).map(BoardRecord.init(row:))
        }
    }

    /// Creates an empty board as one idempotent operation (a retry with the same operation id
    /// answers the first response and creates nothing); `body` may fill it in the same
    /// transaction. The new board starts at version 1.
    /// - Throws: ``StoreError/invalid(_:)`` when the id is taken.
    public func createBoard(id: String, title: String, color: PaletteColor = .boardDefault, operationID: String, fingerprint: @autoclosure () -> String,
                            _ body: (BoardTransaction) throws -> String) throws -> OperationResult {
        try perform(board: id, operationID: operationID, fingerprint: fingerprint(), stored: { $0 }, prepare: { db in
            guard try db.fetchOne(Int.self, sql: "SELECT 1 FROM board WHERE id = ?", arguments: [id]) == nil else {
                throw StoreError.invalid("board \(id) already exists")
            }
            try db.execute(sql: "INSERT INTO board (id, title, version, activity, color, incarnation) VALUES (?, ?, 0, ?, ?, ?)",
                           arguments: [id, title, Date().timeIntervalSince1970, color.rawValue, BoardMemos.newIncarnation()])
        }, { tx in
            // Creating the board is this operation's change, even when `body` adds nothing.
            try tx.db.execute(sql: "UPDATE board SET version = version WHERE id = ?", arguments: [id])
            let response = try body(tx)
            tx.journal.prepend(.board(before: nil, after: UndoBoardState(id: id, title: title, version: 0, color: color.rawValue)))
            return response
        })
    }
}

extension BoardTransaction {
    /// This board's record.
    public func board() throws -> BoardRecord {
        guard let row = try db.row(sql: "SELECT \(BoardRecord.columns) FROM board WHERE id = ?", arguments: [boardID]) else {
            throw StoreError.unknownBoard(boardID)
        }
        return BoardRecord(row: row)
    }

    /// Renames this board (no write if the title is unchanged).
    public func renameBoard(_ title: String) throws {
        let before = try board()
        try db.execute(sql: "UPDATE board SET title = ? WHERE id = ? AND title <> ?", arguments: [title, boardID, title])
        if db.changesCount > 0 {
            journal.append(.board(before: UndoBoardState(id: boardID, title: before.title, version: before.version),
                                  after: UndoBoardState(id: boardID, title: title, version: before.version)))
        }
    }

    /// Deletes this board with its lists and their rows (the foreign keys cascade).
    public func deleteBoard() throws {
        if journal.isRecording {
            _ = try board()  // throws for an unknown board
            for list in try lists() { try journalListDeletion(list.id) }
            journal.append(.board(before: try boardState(), after: nil))
        }
        try db.execute(sql: "DELETE FROM board WHERE id = ?", arguments: [boardID])
    }
}

extension BoardRecord {
    /// The board columns ``init(row:)`` reads, in its order.
    static let columns = "id, title, version, activity, color"

    init(row: SQLRow) {
        self.init(id: row[0], title: row[1], version: row[2], activity: row[3], color: PaletteColor(rawValue: row[4]) ?? .boardDefault)
    }
}
