import GRDB

extension BoardTransaction {
    /// `count` ascending order keys for the rows landing in `gap`.
    ///
    /// Normally these are fresh fractional keys between the gap's neighbours
    /// and nothing else is written. If a key would be longer than
    /// ``BoardStore/maxKeyLength`` (after many inserts into one shrinking gap),
    /// or the neighbours share a key, the scope (the list's top level, or one
    /// container) is **rebalanced** in the same transaction: every non-moving
    /// row gets a short evenly spaced key, in unchanged order, leaving room for
    /// the landing rows. Rebalancing rewrites only `pos`, so it does not bump
    /// the rows' `changedVersion` (nothing a client sees has changed).
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

    /// Rewrites the keys of the gap's scope as `a0, a1, …` (consecutive integer
    /// heads, at most 4 characters for up to 240,000 rows) with `count` slots
    /// after `gap.prev`, and returns the keys of those slots. O(rows in scope).
    func rebalance(_ gap: Gap, count: Int, moving: Set<String>) throws -> [String] {
        let statement = try db.cachedStatement(sql: """
            SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? ORDER BY pos, id
            """)
        let staying = try Row.fetchAll(statement, arguments: [gap.listID, gap.containerID])
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
        let update = try db.cachedStatement(sql: "UPDATE item SET pos = ? WHERE id = ?")
        for (offset, row) in staying.enumerated() {
            let key = keys[offset < slot ? offset : offset + count]
            if key != row.pos { try update.execute(arguments: [key, row.id]) }
        }
        return Array(keys[slot..<(slot + count)])
    }
}
