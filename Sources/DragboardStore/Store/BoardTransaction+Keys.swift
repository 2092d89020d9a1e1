extension BoardTransaction {
    /// `count` ascending order keys for the rows landing in `gap`.
    ///
    /// Normally these are fresh fractional keys between the gap's neighbours
    /// and nothing else is written. If a key would be longer than
    /// ``BoardStore/maxKeyLength`` (after many inserts into one shrinking gap),
    /// or the neighbours share a key, the rows around the gap are **rebalanced**
    /// in the same transaction (``rebalance(_:count:moving:)``: a neighbourhood
    /// of the gap, not the whole list): they get evenly spaced keys, in unchanged
    /// order, leaving room for the landing rows. Rebalancing rewrites only `pos`,
    /// so it does not bump the rows' `changedVersion` (nothing a client sees has
    /// changed; undo and live updates place rows by id and neighbours, never by key).
    func orderKeys(for gap: Gap, count: Int, moving: Set<String>) throws -> [String] {
        guard count > 0 else { return [] }
        let ascending = gap.prev.flatMap { prev in
            gap.next.map { prev.pos.utf8.lexicographicallyPrecedes($0.pos.utf8) }
        } ?? true
        if ascending, let keys = try? OrderKey.keys(between: gap.prev?.pos, and: gap.next?.pos, count: count),
           keys.allSatisfy({ $0.utf8.count <= BoardStore.maxKeyLength }) {
            return keys
        }
        return try rebalance(gap, count: count, moving: moving)
    }

    /// Rows re-keyed on each side of the gap by a first local rebalance; each retry widens the
    /// neighbourhood fourfold.
    static let rebalanceRadius = 8

    /// Re-keys only a neighbourhood of the gap: the `radius` non-moving rows on each side get keys
    /// spread evenly between the rows just outside it (which keep theirs), with `count` slots in
    /// the gap, and the slots' keys are returned. The neighbourhood widens until those keys are
    /// at most half ``BoardStore/maxKeyLength`` long (so the gap takes many more inserts before
    /// the next rebalance); only when it would cover the whole scope is the scope re-keyed
    /// (``rebalanceAll(_:count:moving:)``). A rebalance in a crowded spot of a long list costs a
    /// few dozen rows, not the list.
    func rebalance(_ gap: Gap, count: Int, moving: Set<String>) throws -> [String] {
        var radius = Self.rebalanceRadius
        while true {
            let (below, outerBelow) = try neighbourhood(of: gap, from: gap.prev, radius: radius, moving: moving, direction: .descending)
            let (above, outerAbove) = try neighbourhood(of: gap, from: gap.next, radius: radius, moving: moving, direction: .ascending)
            guard outerBelow != nil || outerAbove != nil else { return try rebalanceAll(gap, count: count, moving: moving) }
            let rows = below.reversed() + above
            if let keys = try? OrderKey.keys(between: outerBelow?.pos, and: outerAbove?.pos, count: rows.count + count),
               keys.allSatisfy({ $0.utf8.count <= BoardStore.maxKeyLength / 2 }) {
                let update = db.cachedStatement(sql: "UPDATE item SET pos = ? WHERE id = ?")
                for (offset, row) in rows.enumerated() {
                    let key = keys[offset < below.count ? offset : offset + count]
                    if key != row.pos { try update.execute(arguments: [key, row.id]) }
                }
                rebalancedRows.add(rows.count)
                return Array(keys[below.count..<(below.count + count)])
            }
            radius *= 4
        }
    }

    /// Up to `radius` non-moving rows of the gap's scope from `start` (included) on, nearest
    /// first, and the first non-moving row beyond them (nil at the scope's end).
    private func neighbourhood(of gap: Gap, from start: OrderBound?, radius: Int, moving: Set<String>,
                               direction: KeyDirection) throws -> ([OrderBound], OrderBound?) {
        guard let start else { return ([], nil) }
        let statement = db.cachedStatement(sql: """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? AND (pos, id) \(direction.comparison) (?, ?)
            ORDER BY \(direction.order) LIMIT ?
            """)
        let rows = try statement.rows(arguments: [gap.listID, gap.containerID, start.pos, start.id, radius + moving.count + 1])
            .map { OrderBound(pos: $0[0], id: $0[1]) }
            .filter { !moving.contains($0.id) }
        return (Array(rows.prefix(radius)), rows.count > radius ? rows[radius] : nil)
    }

    /// Rewrites the keys of the gap's scope as `a0, a1, …` (consecutive integer
    /// heads, at most 4 characters for up to 240,000 rows) with `count` slots
    /// after `gap.prev`, and returns the keys of those slots. O(rows in scope).
    func rebalanceAll(_ gap: Gap, count: Int, moving: Set<String>) throws -> [String] {
        let statement = db.cachedStatement(sql: """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? ORDER BY pos, id
            """)
        let staying = try statement.rows(arguments: [gap.listID, gap.containerID])
            .map { OrderBound(pos: $0[0], id: $0[1]) }
            .filter { !moving.contains($0.id) }
        let slot: Int
        if let prev = gap.prev {
            guard let index = staying.firstIndex(where: { $0.id == prev.id }) else {
                throw StoreError.invalid("neighbour \(prev.id) vanished during rebalance")
            }
            slot = index + 1
        } else {
            slot = 0
        }
        let keys = try OrderKey.keys(between: nil, and: nil, count: staying.count + count)
        let update = db.cachedStatement(sql: "UPDATE item SET pos = ? WHERE id = ?")
        for (offset, row) in staying.enumerated() {
            let key = keys[offset < slot ? offset : offset + count]
            if key != row.pos { try update.execute(arguments: [key, row.id]) }
        }
        rebalancedRows.add(staying.count)
        return Array(keys[slot..<(slot + count)])
    }
}

/// Which way a walk through a scope's `(pos, id)` order goes.
enum KeyDirection {
    case ascending, descending

    /// Rows from a bound on (the bound included), upwards or downwards.
    var comparison: String { self == .ascending ? ">=" : "<=" }
    var order: String { self == .ascending ? "pos, id" : "pos DESC, id DESC" }
}
