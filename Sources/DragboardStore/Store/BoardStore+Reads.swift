import Dragboard

extension BoardStore {
    /// A whole board (version, lists, rows and container contents) read in one transaction.
    /// - Throws: ``StoreError/unknownBoard(_:)``.
    public func snapshot(board: String = BoardStore.defaultBoardID) throws -> BoardSnapshot {
        try read(board: board) { try $0.snapshot() }
    }

    /// A board's current version (0 for a new board). - Throws: ``StoreError/unknownBoard(_:)``.
    public func version(board: String = BoardStore.defaultBoardID) throws -> Int {
        try engine.readOne { db in try StoreQueries.version(db, board: board) }
    }

    /// A board's lists ordered by `position, id`.
    public func lists(board: String = BoardStore.defaultBoardID) throws -> [ListRecord] {
        try engine.read { db in try StoreQueries.lists(db, board: board) }
    }

    /// Top-level rows of a list of `board` in display order.
    /// - Throws: ``StoreError/unknownList(_:)``, also for a list of another board.
    public func rows(in listID: String, board: String = BoardStore.defaultBoardID) throws -> [ItemRecord] {
        try engine.read { db in
            try StoreQueries.requireList(db, listID, board: board)
            return try StoreQueries.rows(db, listID: listID, containerID: nil)
        }
    }

    /// Items inside a container row in display order.
    /// - Throws: ``StoreError/unknownItem(_:)`` if the container does not exist.
    public func contents(of containerID: String) throws -> [ItemRecord] {
        try engine.read { db in
            _ = try StoreQueries.requireItem(db, containerID)
            return try StoreQueries.contents(db, of: containerID)
        }
    }

    /// The items with these ids, in the given order.
    /// - Throws: ``StoreError/unknownItem(_:)`` for the first missing id.
    public func items(_ ids: [String]) throws -> [ItemRecord] {
        try engine.read { db in try ids.map { try StoreQueries.requireItem(db, $0) } }
    }

    /// Items of `board` changed by operations committed after `version` (deleted items are not reported).
    public func changedSince(_ version: Int, board: String = BoardStore.defaultBoardID) throws -> [ItemRecord] {
        try engine.read { db in try StoreQueries.changedSince(db, version, board: board) }
    }
}

extension BoardTransaction {
    /// This board as a whole, as this transaction sees it.
    public func snapshot() throws -> BoardSnapshot {
        let items = try StoreQueries.fetchItems(db, """
            SELECT \(StoreQueries.itemColumns) FROM item WHERE listID IN (SELECT id FROM list WHERE boardID = ?)
            ORDER BY listID, containerID, pos, id
            """, [boardID])
        var snapshot = BoardSnapshot(version: baseVersion, lists: try lists(), items: items)
        snapshot.labels = try labels()
        return snapshot
    }

    /// Whether the kit's zones are on this board: they sit on the default board only.
    public var hasZones: Bool { boardID == BoardStore.defaultBoardID }
}
