import Dragboard
import Foundation

/// A row with its place in its list, in one query: what a drag start asks of the row it picks up
/// (the row, its index) and what the drop that moves it records of where it was (the rows beside
/// it, for the undo journal). Read with the board's state where a drag starts, so that the whole
/// drag start can be one statement (``BoardStore/read(board:picking:inList:_:)``).
extension BoardTransaction {
    /// The rows ahead of a row that the query counts at most: beyond them, ``displayIndex(of:)``
    /// counts from the nearer end.
    static let aheadLimit = 64

    /// The columns of row `i` and of its place among the top-level rows of a list: the row's own,
    /// the rows ahead of it (at most ``aheadLimit`` + 1), those sharing its key ahead of it by id, and
    /// the order bounds (`pos`, `id`) of the rows just before and just after it.
    static let placedRowColumns = placedRowColumns(counting: true)

    /// ``placedRowColumns``, or with the two counts null (`counting` false) where only the
    /// neighbours are asked (``placedRowArguments(_:counting:then:)`` binds it).
    static func placedRowColumns(counting: Bool) -> String {
        let before = "FROM item WHERE \(scope) AND (pos, id) < (i.pos, i.id) ORDER BY pos DESC, id DESC LIMIT 1"
        let after = "FROM item WHERE \(scope) AND (pos, id) > (i.pos, i.id) ORDER BY pos, id LIMIT 1"
        let counts = counting
            ? ", (SELECT COUNT(*) FROM (SELECT 1 FROM item WHERE \(scope) AND pos < i.pos LIMIT \(aheadLimit + 1)) AS ahead)"
                + ", (SELECT COUNT(*) FROM item WHERE \(scope) AND pos = i.pos AND id < i.id)"
            : ", NULL, NULL"
        return StoreQueries.itemColumns.split(separator: ",").map { "i." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            + counts + ", (SELECT pos \(before)), (SELECT id \(before)), (SELECT pos \(after)), (SELECT id \(after))"
    }

    /// How many columns ``placedRowColumns`` names.
    static let placedRowWidth = 14

    /// The arguments of ``placedRowColumns`` for a place among `listID`'s top-level rows, then `more`.
    static func placedRowArguments(_ listID: String, counting: Bool = true, then more: String...) -> SQLArguments {
        SQLArguments(Array(repeating: [listID, nil] as [String?], count: counting ? 6 : 4).flatMap { $0 } + more.map(Optional.some))
    }

    /// Reads row `id` and its place among `listID`'s top-level rows, and keeps what it learnt.
    static func readPlacedRow(_ id: String, inList listID: String, _ db: any SQLConnection) throws {
        let row = try db.cachedStatement(sql: placedRowBranch).row(arguments: placedRowArguments(listID, then: id))
        keepPlacedRow(row, from: 0, id: id, inList: listID, db)
    }

    /// Keeps what the columns of ``placedRowColumns`` from `offset` of `row` say of row `id` (all
    /// null, or no row: it does not exist): the row, as ``StoreQueries/item(_:_:)`` keeps it, and
    /// where it is one of `listID`'s top-level rows, its index (where counted, and no more rows
    /// precede it than were) and the steps to its neighbours.
    static func keepPlacedRow(_ row: SQLRow?, from offset: Int, id: String, inList listID: String, _ db: any SQLConnection) {
        let item: ItemRecord? = row.flatMap { row in
            (row[offset] as String?).map { _ in
                ItemRecord(id: row[offset], listID: row[offset + 1], containerID: row[offset + 2], pos: row[offset + 3],
                           kind: row[offset + 4], title: row[offset + 5], payload: row[offset + 6], changedVersion: row[offset + 7])
            }
        }
        db.remember(item, for: StoreQueries.itemKey(id), .row(item))
        guard let row, let item, item.listID == listID, item.containerID == nil else { return }
        let gap = Gap(listID: listID, containerID: nil), bound = OrderBound(pos: item.pos, id: item.id)
        func neighbour(_ pos: String?, _ id: String?) -> OrderBound? { pos.flatMap { pos in id.map { OrderBound(pos: pos, id: $0) } } }
        db.remember(neighbour(row[offset + 10], row[offset + 11]), for: stepKey(.descending, from: bound, in: gap), .list(listID))
        db.remember(neighbour(row[offset + 12], row[offset + 13]), for: stepKey(.ascending, from: bound, in: gap), .list(listID))
        if let ahead = row[offset + 8] as Int?, ahead <= aheadLimit {
            db.remember(ahead + (row[offset + 9] as Int), for: indexKey(item), .list(listID))
        }
    }
}

extension BoardStore {
    /// ``read(board:_:)`` for a drag start that picks up row `id` of `listID`: the board's state and
    /// the row with its place come in one query, and an engine that can answers the rest from what
    /// it remembers of the board in that state without a transaction (one statement instead of
    /// four on PostgreSQL); where `body` asks anything more, it runs again in a read transaction.
    public func read<T>(board: String = BoardStore.defaultBoardID, picking id: String, inList listID: String,
                        _ body: (BoardTransaction) throws -> T) throws -> T {
        try engine.readLeading({ db in
            let row = try db.cachedStatement(sql: """
                SELECT \(db.boardMarkColumns), \(BoardTransaction.placedRowColumns)
                FROM board LEFT JOIN item AS i ON i.id = ? WHERE board.id = ?
                """).row(arguments: BoardTransaction.placedRowArguments(listID, then: id, board))
            guard let row else {
                db.remember(Int?.none, for: ReadMemo.versionKey(board), .board(board))
                return
            }
            // As StoreQueries.version keeps it: the transaction starts from what an earlier one left of this state.
            db.memo.found(board: board, row: row, stamp: db.totalChangesCount)
            db.remember(Int?.some(row[0]), for: ReadMemo.versionKey(board), .board(board))
            BoardTransaction.keepPlacedRow(row, from: 4, id: id, inList: listID, db)
        }) { db in
            try body(BoardTransaction(db: db, boardID: board, baseVersion: StoreQueries.version(db, board: board)))
        }
    }
}
