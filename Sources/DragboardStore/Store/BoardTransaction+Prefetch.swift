import Dragboard

/// What an operation is about to ask of several rows, read in one query: on PostgreSQL each query
/// is a round trip and a wake-up of both sides, and a drop among other people's drops finds what
/// it remembered of where the rows are out of date (each of their drops moved the rows' neighbours).
extension BoardTransaction {
    /// Reads the rows `ids` at once (a missing one as missing). A row `indexed` names with a list
    /// comes with its place among that list's top-level rows: its index and the rows just before
    /// and after it (a drop beside a hovered row asks for its index and the row before it). A row
    /// `leaving` names comes with the rows beside it (a drop's undo records where a dragged row was)
    /// only along with a query sent anyway: alone, the journal's own query for them is lighter.
    /// What this transaction already knows is not read again.
    public func prefetchItems(_ ids: [String], indexed: [String: String], leaving: [String: String] = [:]) throws {
        var seen: Set<String> = []
        var plain: [String] = [], placed: [(id: String, list: String, counting: Bool)] = [], left: [(id: String, list: String)] = []
        var asking = false  // a query goes whatever the leaving rows need
        for id in ids where seen.insert(id).inserted {
            let known = db.remembered(StoreQueries.itemKey(id), as: ItemRecord?.self)
            if let list = indexed[id] {
                guard !Self.knowsPlace(known, inList: list, counted: true, db) else { continue }
                placed.append((id, list, true))
                asking = true
            } else if let list = leaving[id] {
                guard !Self.knowsPlace(known, inList: list, counted: false, db) else { continue }
                left.append((id, list))
                asking = asking || known == nil
            } else if known == nil {
                plain.append(id)
            }
        }
        if asking || plain.count > 1 { placed += left.map { ($0.id, $0.list, false) } }
        // Past a few, rows come without their places (asked later, one query each, as without this):
        // a drag of up to 500 rows must stay under SQLite's 500 terms of a compound SELECT.
        if placed.count > Self.placedBranchLimit {
            plain += placed[Self.placedBranchLimit...].map(\.id).filter { db.remembered(StoreQueries.itemKey($0), as: ItemRecord?.self) == nil }
            placed.removeSubrange(Self.placedBranchLimit...)
        }
        if placed.isEmpty { return try StoreQueries.prefetchItems(db, plain) }
        // One branch per placed row (first: they type the columns), then the plain rows, without a place.
        var branches = placed.map { $0.counting ? Self.placedRowBranch : Self.neighboursBranch }
        var arguments: SQLArguments = []
        arguments.values = placed.flatMap { Self.placedRowArguments($0.list, counting: $0.counting, then: $0.id).values }
        if !plain.isEmpty {
            let marks = Array(repeating: "?", count: plain.count).joined(separator: ", ")
            let noPlace = Array(repeating: "NULL", count: Self.placedRowWidth - 8).joined(separator: ", ")
            branches.append("SELECT \(StoreQueries.itemColumns), \(noPlace) FROM item WHERE id IN (\(marks))")
            arguments.values += SQLArguments(plain).values
        }
        let rows = try db.cachedStatement(sql: branches.joined(separator: "\nUNION ALL ")).rows(arguments: arguments)
        var found: [String: SQLRow] = [:]
        for row in rows { found[row[0]] = row }
        for row in placed { Self.keepPlacedRow(found[row.id], from: 0, id: row.id, inList: row.list, db) }
        for id in plain {
            let item = found[id].map(StoreQueries.item(from:))
            db.remember(item, for: StoreQueries.itemKey(id), .row(item))
        }
    }

    /// The rows at most that ``prefetchItems(_:indexed:leaving:)`` reads with their places.
    static let placedBranchLimit = 8

    /// The query's branch for a row with its place, and for a row with its neighbours alone: made
    /// once (building the columns' text on every call was 3% of a drop cycle's instructions).
    static let placedRowBranch = "SELECT \(placedRowColumns) FROM item AS i WHERE i.id = ?"
    static let neighboursBranch = "SELECT \(placedRowColumns(counting: false)) FROM item AS i WHERE i.id = ?"

    /// Whether this transaction knows a row (`known`: as remembered, nil when not) and, where it is
    /// one of `listID`'s top-level rows, the rows just before and after it and, if `counted`, its
    /// index.
    static func knowsPlace(_ known: ItemRecord??, inList listID: String, counted: Bool, _ db: any SQLConnection) -> Bool {
        guard let known else { return false }
        guard let item = known, item.listID == listID, item.containerID == nil else { return true }
        let gap = Gap(listID: listID, containerID: nil), bound = OrderBound(pos: item.pos, id: item.id)
        return db.remembered(stepKey(.descending, from: bound, in: gap), as: OrderBound?.self) != nil
            && db.remembered(stepKey(.ascending, from: bound, in: gap), as: OrderBound?.self) != nil
            && (!counted || db.remembered(indexKey(item), as: Int.self) != nil)
    }
}
