/// What one transaction has read of rows it reads again and again (an item by id, a board's lists),
/// each answer kept with the connection's count of changed rows when it was read: an answer is
/// good while nothing was written since, and forgotten when a savepoint rolls back (a rollback
/// changes rows without counting them). A drop reads the dragged item about nine times; over a
/// network each read is a round trip.
///
/// A write may also leave answers it knows for certain (a move: the rows it wrote, their new
/// neighbours, the lists' counts), kept as if just read; and writes that touch none of the rows
/// remembered (a change's bookkeeping) carry the answers over (``carry(from:to:except:)``).
///
/// One per connection wrapper, which lives for one transaction; not `Sendable`.
package final class ReadMemo {
    private var answers: [String: (stamp: Int, value: Any)] = [:]

    package init() {}

    /// The answer remembered under `key`, if nothing was written since (`stamp`: the connection's
    /// ``SQLConnection/totalChangesCount`` now).
    func answer<Value>(_ key: String, at stamp: Int, as type: Value.Type) -> Value? {
        guard let known = answers[key], known.stamp == stamp else { return nil }
        return known.value as? Value
    }

    package func remember(_ value: Any, for key: String, at stamp: Int) {
        answers[key] = (stamp, value)
    }

    /// After writes that changed none of the rows remembered (a change's bookkeeping): what was
    /// good at `stamp` is good at `now`, except under `stale`.
    func carry(from stamp: Int, to now: Int, except stale: String) {
        for (key, known) in answers where known.stamp == stamp && key != stale {
            answers[key] = (now, known.value)
        }
        answers[stale] = nil
    }

    /// After a rollback: nothing read before may still hold.
    package func forget() {
        answers.removeAll(keepingCapacity: true)
    }
}

extension ReadMemo {
    /// Where a board's version is kept (an `Int?`: nil for no such board). An engine that reads the
    /// version as it locks the board's row keeps it here, so the operation's own read costs nothing.
    package static func versionKey(_ board: String) -> String { "version " + board }
}

extension SQLConnection {
    /// `read()`, or its answer from earlier in this transaction if no row was written since.
    func memoized<Value>(_ key: String, _ read: () throws -> Value) throws -> Value {
        let stamp = totalChangesCount
        if let known = memo.answer(key, at: stamp, as: Value.self) { return known }
        let value = try read()
        memo.remember(value, for: key, at: stamp)
        return value
    }

    /// The answer remembered under `key`, if no row was written since; never reads.
    func remembered<Value>(_ key: String, as type: Value.Type) -> Value? {
        memo.answer(key, at: totalChangesCount, as: type)
    }

    /// Keeps `value` under `key` as if a read had just answered it (a query that answered more).
    func remember<Value>(_ value: Value, for key: String) {
        memo.remember(value, for: key, at: totalChangesCount)
    }
}
