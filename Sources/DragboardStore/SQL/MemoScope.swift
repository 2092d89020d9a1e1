import Dragboard

/// What a remembered answer depends on: which writes make it old, and which board it describes
/// (only answers wholly about one board outlive their transaction, see ``BoardMemos``).
package enum MemoScope: Sendable, Equatable {
    /// The board's own rows (its record, its lists' names and order): no move of rows changes them.
    case board(String)
    /// Rows of one list (their order, their counts).
    case list(String)
    /// One row, in `list`: a move changes it only if it wrote that row, or rows of that list it cannot name.
    case item(id: String, list: String)
    /// Rows anywhere on the board (each list's count).
    case allRows(board: String)
    /// The top-level rows of `kinds` on the board, with their content counts, found in `lists`: a
    /// move changes them only if it touches one of those lists or moves a row of one of those kinds.
    case containers(board: String, lists: Set<String>, kinds: Set<String>)
    /// Operation records: only an operation's bookkeeping writes them (and forgets the one it writes),
    /// no move of rows. They never outlive their transaction.
    case operations
    /// Depends on anything (a row that does not exist, say): any write makes it old.
    case anything

    /// The scope of an answer about one row (none: a missing row).
    static func row(_ item: ItemRecord?) -> MemoScope {
        item.map { .item(id: $0.id, list: $0.listID) } ?? .anything
    }

    /// Whether `write` may have changed what the answer says.
    func isChanged(by write: RowWrite) -> Bool {
        switch self {
        case .board, .operations: false
        case .list(let list): write.lists.contains(list)
        case .item(let id, let list): write.lists.contains(list) && (write.rows?.contains(id) ?? true)
        case .allRows: true
        case .containers(_, let lists, let kinds): write.lists.contains(where: lists.contains) || write.kinds.contains(where: kinds.contains)
        case .anything: true
        }
    }

    /// Whether the answer is about `board` alone, whose lists are `lists`.
    func isWhollyAbout(_ board: String, lists boardLists: Set<String>) -> Bool {
        switch self {
        case .board(let other), .allRows(let other): other == board
        case .list(let list), .item(_, let list): boardLists.contains(list)
        case .containers(let other, let lists, _): other == board && lists.isSubset(of: boardLists)
        case .operations, .anything: false
        }
    }
}
