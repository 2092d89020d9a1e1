import Dragboard

/// One row-level effect of an operation, as the undo history keeps it: the row's state before
/// and after (nil: the row did not exist). Undo checks that the row is still in its `after`
/// state and brings back `before`; redo checks `before` and brings back `after`. The order keys
/// are kept, but a row is placed by its neighbours' ids (see ``UndoItemState``).
enum UndoChange: Codable, Sendable, Equatable {
    case item(before: UndoItemState?, after: UndoItemState?)
    case list(before: UndoListState?, after: UndoListState?)
    /// The order of a board's lists (ids, in order) before and after.
    case listOrder(board: String, before: [String], after: [String])
    case board(before: UndoBoardState?, after: UndoBoardState?)
    case image(before: UndoImageState?, after: UndoImageState?)
    /// A zone's text (nil: none stored).
    case label(zoneID: String, before: String?, after: String?)
}

/// A row and where it sat: the ids of its neighbours in its list (or container) at that moment.
struct UndoItemState: Codable, Sendable, Equatable {
    var record: ItemRecord
    var previous: String?
    var next: String?
}

/// A list, its board, and the lists beside it.
struct UndoListState: Codable, Sendable, Equatable {
    var record: ListRecord
    var board: String
    var previous: String?
    var next: String?
}

/// A board's own row. `color` and `labels` (the board's labels as stored) are nil in a change
/// that does not touch them (a rename) and in entries written before boards had them.
struct UndoBoardState: Codable, Sendable, Equatable {
    var id: String
    var title: String
    var version: Int
    var color: String? = nil
    var labels: String? = nil
}

/// A stored image's record (its file lives in the image folder, or in `removed/` while only the
/// history refers to it).
struct UndoImageState: Codable, Sendable, Equatable {
    var record: ZoneImageRecord
    var createdVersion: Int
}

/// What an operation did, while it runs: filled by the transaction's mutating methods once the
/// operation's body asked for it (``BoardTransaction/recordUndo(for:actionName:)``).
final class UndoJournal {
    /// The (hashed) browser identity the entry belongs to; nil: nothing is recorded.
    var owner: String?
    var actionName = ""
    private(set) var changes: [UndoChange] = []
    /// Too many row changes for one entry: the operation is not undoable (a huge board deletion).
    private(set) var overflowed = false
    static let maximumChanges = 20_000

    var isRecording: Bool { owner != nil }

    func append(_ change: UndoChange) {
        guard isRecording, !overflowed else { return }
        guard changes.count < Self.maximumChanges else { overflowed = true; changes = []; return }
        changes.append(change)
    }

    func prepend(_ change: UndoChange) {
        guard isRecording, !overflowed else { return }
        changes.insert(change, at: 0)
    }
}
