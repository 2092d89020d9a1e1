import Dragboard

/// A row's position in the total order `(pos, id)`.
package struct OrderBound: Equatable, Sendable {
    package var pos: String
    package var id: String

    /// Byte-wise comparison, as SQLite's BINARY collation does it.
    package static func precedes(_ a: OrderBound, _ b: OrderBound) -> Bool {
        if a.pos != b.pos { return a.pos.utf8.lexicographicallyPrecedes(b.pos.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// A resolved insertion point: between two adjacent non-moving rows of one scope.
package struct Gap {
    package var listID: String
    package var containerID: String?
    package var prev: OrderBound?
    package var next: OrderBound?

    package init(listID: String, containerID: String?, prev: OrderBound? = nil, next: OrderBound? = nil) {
        self.listID = listID
        self.containerID = containerID
        self.prev = prev
        self.next = next
    }
}

extension BoardTransaction {
    /// Resolves a placement to a gap (see ``Placement`` for the rules).
    func resolve(_ placement: Placement, moving: Set<String>) throws -> Gap {
        let listID = placement.listID
        let containerID = placement.containerID
        try StoreQueries.requireList(db, listID, board: boardID)
        if let containerID { _ = try StoreQueries.requireContainer(db, containerID, in: listID) }
        var count = 0
        if let index = placement.index {
            count = try rowCount(listID, containerID)
            guard (0...count).contains(index) else { throw StoreError.indexOutOfRange(index, count: count) }
        }
        var gap = Gap(listID: listID, containerID: containerID)
        func neighbour(_ id: String?) throws -> OrderBound? {
            guard let id, let row = try StoreQueries.item(db, id),
                  row.listID == listID, row.containerID == containerID else { return nil }
            return OrderBound(pos: row.pos, id: row.id)
        }
        if let anchor = try neighbour(placement.after) {
            gap.prev = moving.contains(anchor.id) ? try bound(before: anchor, in: gap, skipping: moving) : anchor
            gap.next = try bound(after: anchor, in: gap, skipping: moving)
        } else if let anchor = try neighbour(placement.before) {
            gap.prev = try bound(before: anchor, in: gap, skipping: moving)
            gap.next = moving.contains(anchor.id) ? try bound(after: anchor, in: gap, skipping: moving) : anchor
        } else if let index = placement.index {
            let clamped = min(max(index, 0), count)
            if let boundary = try rowBound(at: clamped, in: gap, count: count) {
                gap.prev = try bound(before: boundary, in: gap, skipping: moving)
                gap.next = moving.contains(boundary.id) ? try bound(after: boundary, in: gap, skipping: moving) : boundary
            } else {
                gap.prev = try bound(before: nil, in: gap, skipping: moving)
            }
        } else if placement.after == nil, placement.before == nil {
            gap.prev = try bound(before: nil, in: gap, skipping: moving)  // append at the end
        } else {
            throw StoreError.conflict(
                "neighbours \(placement.after ?? "-")/\(placement.before ?? "-") are no longer in \(listID)")
        }
        return gap
    }

    /// How many rows a list's top level (`containerID` nil) or a container holds: one indexed
    /// lookup in the counts the triggers of `v6-row-counts` keep.
    package func rowCount(_ listID: String, _ containerID: String?) throws -> Int {
        // A list's count comes with the board's lists, which the operation reads anyway: one query for both.
        if containerID == nil, db.remembered(StoreQueries.listsKey(boardID), as: [ListRecord].self) == nil {
            _ = try lists()
        }
        return try db.memoized(StoreQueries.rowCountKey(listID, containerID), .list(listID)) {
            let statement = db.cachedStatement(
                sql: "SELECT count FROM rowCount WHERE listID = ? AND containerID = ?")
            return try statement.fetchOne(Int.self, arguments: [listID, containerID ?? ""]) ?? 0
        }
    }

    /// The row at `index` in display order, or nil past the end: beside the last row whose index
    /// this transaction counted (one step through the index), else an OFFSET query from the
    /// nearer end (the count says which), so the last rows of a long list cost a few steps.
    /// `count`: the scope's row count, where the caller has just read it.
    package func rowBound(at index: Int, in gap: Gap, count known: Int? = nil) throws -> OrderBound? {
        if let known = knownRow.value, known.listID == gap.listID, known.containerID == gap.containerID,
           known.changes == db.totalChangesCount, abs(index - known.index) <= 1 {
            if index == known.index { return known.bound }
            return try index > known.index ? bound(after: known.bound, in: gap, skipping: []) : bound(before: known.bound, in: gap, skipping: [])
        }
        let count = try known ?? rowCount(gap.listID, gap.containerID)
        guard index >= 0, index < count else { return nil }
        let fromTheEnd = index >= count / 2
        let statement = db.cachedStatement(sql: """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ?
            ORDER BY \(fromTheEnd ? "pos DESC, id DESC" : "pos, id") LIMIT 1 OFFSET ?
            """)
        return try statement.row(arguments: [gap.listID, gap.containerID, fromTheEnd ? count - 1 - index : index])
            .map { OrderBound(pos: $0[0], id: $0[1]) }
    }

    /// The first row after `start` (or the first row) that is not being moved.
    func bound(after start: OrderBound?, in gap: Gap, skipping moving: Set<String>) throws -> OrderBound? {
        try walk(from: start, in: gap, skipping: moving, direction: .ascending)
    }

    /// ``bounds(around:in:)``'s query, made once: the rows just before and just after a row.
    private static let boundsQuery = {
        let step = "SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? AND (pos, id)"
        return """
            SELECT 0, pos, id FROM (\(step) < (?, ?) ORDER BY pos DESC, id DESC LIMIT 1) AS earlier
            UNION ALL SELECT 1, pos, id FROM (\(step) > (?, ?) ORDER BY pos, id LIMIT 1) AS later
            """
    }()

    /// The last row before `end` (or the last row) that is not being moved.
    func bound(before end: OrderBound?, in gap: Gap, skipping moving: Set<String>) throws -> OrderBound? {
        try walk(from: end, in: gap, skipping: moving, direction: .descending)
    }

    /// The rows just before and just after `bound` in its scope (the undo journal's "where it was"):
    /// read in one query where neither step is known yet, then each remembered as ``walk(from:in:skipping:direction:)`` does.
    func bounds(around bound: OrderBound, in gap: Gap) throws -> (before: OrderBound?, after: OrderBound?) {
        let keys = (before: Self.stepKey(.descending, from: bound, in: gap), after: Self.stepKey(.ascending, from: bound, in: gap))
        guard db.remembered(keys.before, as: OrderBound?.self) == nil, db.remembered(keys.after, as: OrderBound?.self) == nil else {
            return (try self.bound(before: bound, in: gap, skipping: []), try self.bound(after: bound, in: gap, skipping: []))
        }
        let rows = try db.cachedStatement(sql: Self.boundsQuery).rows(arguments: [gap.listID, gap.containerID, bound.pos, bound.id, gap.listID, gap.containerID, bound.pos, bound.id])
        var found: (before: OrderBound?, after: OrderBound?) = (nil, nil)
        for row in rows {
            let neighbour = OrderBound(pos: row[1], id: row[2])
            if (row[0] as Int) == 0 { found.before = neighbour } else { found.after = neighbour }
        }
        db.remember(found.before, for: keys.before, .list(gap.listID))
        db.remember(found.after, for: keys.after, .list(gap.listID))
        return found
    }

    enum Direction {
        case ascending, descending

        var comparison: String { self == .ascending ? ">" : "<" }
        var order: String { self == .ascending ? "pos, id" : "pos DESC, id DESC" }

        /// ``walk(from:in:skipping:direction:)``'s queries, made once each: the first row from the
        /// end it starts from, and the row after a cursor.
        var edgeQuery: String { self == .ascending ? Self.edgeQueries.ascending : Self.edgeQueries.descending }
        var neighbourQuery: String { self == .ascending ? Self.neighbourQueries.ascending : Self.neighbourQueries.descending }

        private static let edgeQueries = (ascending: edge(.ascending), descending: edge(.descending))
        private static let neighbourQueries = (ascending: neighbour(.ascending), descending: neighbour(.descending))

        private static func edge(_ direction: Self) -> String {
            """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ?
            ORDER BY \(direction.order) LIMIT 1
            """
        }

        private static func neighbour(_ direction: Self) -> String {
            """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? AND (pos, id) \(direction.comparison) (?, ?)
            ORDER BY \(direction.order) LIMIT 1
            """
        }
    }

    /// Steps one row at a time through the index from `cursor` (or the end it starts from) to
    /// the first row not in `moving`: moving rows are usually few, so this beats a NOT IN scan.
    private func walk(from cursor: OrderBound?, in gap: Gap, skipping moving: Set<String>, direction: Direction) throws -> OrderBound? {
        let edge = db.cachedStatement(sql: direction.edgeQuery)
        let neighbour = db.cachedStatement(sql: direction.neighbourQuery)
        var cursor = cursor
        while true {
            // Each step is remembered: a drop asks for the same neighbours while it decides, moves and answers.
            let found: OrderBound? = try db.memoized(Self.stepKey(direction, from: cursor, in: gap), .list(gap.listID)) {
                try (cursor.map { try neighbour.row(arguments: [gap.listID, gap.containerID, $0.pos, $0.id]) }
                    ?? edge.row(arguments: [gap.listID, gap.containerID]))
                    .map { OrderBound(pos: $0[0], id: $0[1]) }
            }
            guard let found else { return nil }
            guard moving.contains(found.id) else { return found }
            cursor = found
        }
    }

    /// Where the step from `cursor` (nil: from the end) in `direction` is remembered (an `OrderBound?`).
    static func stepKey(_ direction: Direction, from cursor: OrderBound?, in gap: Gap) -> MemoKey {
        MemoKey("step \(direction.comparison) \(gap.listID)\u{1F}\(gap.containerID ?? "")\u{1F}\(cursor?.pos ?? "")\u{1F}\(cursor?.id ?? "")")
    }

    /// After a move wrote `landed` (in order) into `gap`: they sit between `gap.prev` and `gap.next`
    /// with nothing else between, so every step among them is known without a query (the answer
    /// and the undo journal ask for the moved rows' neighbours).
    func rememberNeighbours(of landed: [OrderBound], in gap: Gap) {
        guard !landed.isEmpty else { return }
        let chain: [OrderBound?] = [gap.prev] + landed.map(Optional.some) + [gap.next]
        for index in chain.indices.dropFirst().dropLast() {
            db.remember(chain[index - 1], for: Self.stepKey(.descending, from: chain[index], in: gap), .list(gap.listID))
            db.remember(chain[index + 1], for: Self.stepKey(.ascending, from: chain[index], in: gap), .list(gap.listID))
        }
        db.remember(chain[1], for: Self.stepKey(.ascending, from: gap.prev, in: gap), .list(gap.listID))
        db.remember(chain[chain.count - 2], for: Self.stepKey(.descending, from: gap.next, in: gap), .list(gap.listID))
    }
}
