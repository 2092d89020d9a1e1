import Foundation
import Dragboard

/// What a card holds besides its title (its payload's details) and what a board holds for its
/// cards (labels) and for its index tile (a colour): each write joins the undo history like a rename.
extension BoardTransaction {
    /// Replaces a row's payload (no write, and so no new version, if it is unchanged).
    public func setPayload(_ id: String, _ payload: String) throws {
        let item = try StoreQueries.requireItem(db, id)
        guard item.payload != payload else { return }
        try requireJSON(payload)
        let before = try journal.isRecording ? itemState(id) : nil
        try db.cachedStatement(sql: "UPDATE item SET payload = ?, changedVersion = ? WHERE id = ?")
            .execute(arguments: [payload, newVersion, id])
        if journal.isRecording { journal.append(.item(before: before, after: try itemState(id))) }
    }

    /// This board's labels.
    public func labels() throws -> BoardLabels {
        BoardLabels(json: try db.fetchOne(String.self, sql: "SELECT labels FROM board WHERE id = ?", arguments: [boardID]) ?? "[]")
    }

    /// Replaces this board's labels.
    public func setLabels(_ labels: BoardLabels) throws {
        try setBoard(\.labels, column: "labels", to: labels.json)
    }

    /// Gives this board another colour on the index.
    public func setColor(_ color: PaletteColor) throws {
        try setBoard(\.color, column: "color", to: color.rawValue)
    }

    /// Writes one of the board's own columns (no write when unchanged) and its undo entry.
    private func setBoard(_ field: WritableKeyPath<UndoBoardState, String?>, column: String, to value: String) throws {
        let before = try boardState()
        guard before[keyPath: field] != value else { return }
        try db.execute(sql: "UPDATE board SET \(column) = ? WHERE id = ?", arguments: [value, boardID])
        var after = before
        after[keyPath: field] = value
        journal.append(.board(before: before, after: after))
    }

    /// A card that came from another board wears this board's labels of the same names (and
    /// colours), made here when this board has none of that name: labels belong to a board.
    func carryLabels(of id: String, from board: String) throws {
        let item = try StoreQueries.requireItem(db, id)
        var details = CardDetails.of(payload: item.payload)
        guard !details.labels.isEmpty else { return }
        let theirs = BoardLabels(json: try db.fetchOne(String.self, sql: "SELECT labels FROM board WHERE id = ?", arguments: [board]) ?? "[]")
        var ours = try labels()
        let before = ours
        details.labels = details.labels.compactMap { theirs[$0] }.compactMap { label in
            if let same = ours.all.first(where: { $0.name.caseInsensitiveCompare(label.name) == .orderedSame }) { return same.id }
            guard ours.all.count < BoardLabel.maximumCount else { return nil }
            ours.all.append(BoardLabel(id: UUID().uuidString.lowercased(), name: label.name, color: label.color))
            return ours.all.last?.id
        }
        if ours != before { try setLabels(ours) }
        details.labels = try CardDetails.checkedLabels(details.labels, of: ours)
        try setPayload(id, details.stored(in: item.payload))
    }

    /// The board's row as the undo history keeps it, with its colour and labels.
    func boardState() throws -> UndoBoardState {
        guard let row = try db.row(sql: "SELECT title, version, color, labels FROM board WHERE id = ?", arguments: [boardID]) else {
            throw StoreError.unknownBoard(boardID)
        }
        return UndoBoardState(id: boardID, title: row[0], version: row[1], color: row[2], labels: row[3])
    }
}
extension BoardTransaction: CardEditing {}

extension BoardTransaction {
    /// Every row of this board, its lists' rows and their contents (what a search looks through).
    public func everyRow() throws -> [ItemRecord] {
        try db.rows(sql: """
            SELECT item.id, item.listID, item.containerID, item.pos, item.kind, item.title, item.payload, item.changedVersion
            FROM item JOIN list ON list.id = item.listID WHERE list.boardID = ?
            """, arguments: [boardID]).map {
            ItemRecord(id: $0[0], listID: $0[1], containerID: $0[2], pos: $0[3], kind: $0[4], title: $0[5], payload: $0[6], changedVersion: $0[7])
        }
    }
}

extension BoardStore {
    /// The board a row is on, if the row exists.
    public func board(ofItem id: String) throws -> String? {
        try engine.read { db in
            try db.fetchOne(String.self, sql: "SELECT list.boardID FROM item JOIN list ON list.id = item.listID WHERE item.id = ?", arguments: [id])
        }
    }

    /// Each board's number of lists and of cards (its lists' top rows), by board id.
    public func boardCounts() throws -> [String: (lists: Int, cards: Int)] {
        try engine.read { db in
            var counts: [String: (lists: Int, cards: Int)] = [:]
            // PostgreSQL sums BIGINTs as NUMERIC: the cast keeps the answer an integer on both engines.
            for row in try db.rows(sql: """
                SELECT list.boardID, COUNT(*), CAST(COALESCE(SUM(rowCount.count), 0) AS BIGINT) FROM list
                LEFT JOIN rowCount ON rowCount.listID = list.id AND rowCount.containerID = ''
                GROUP BY list.boardID
                """) {
                counts[row[0]] = (row[1], row[2])
            }
            return counts
        }
    }
}

extension BoardStore {
    /// The answer an operation recorded (its JSON), if it ran.
    public func operationResponse(_ id: String) throws -> String? {
        try engine.read { db in try db.fetchOne(String.self, sql: "SELECT response FROM operation WHERE id = ?", arguments: [id]) }
    }
}
