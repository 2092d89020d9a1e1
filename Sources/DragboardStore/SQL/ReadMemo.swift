/// What one transaction has read of rows it reads again and again (an item by id, a board's lists),
/// each answer kept with the connection's count of changed rows when it was read: an answer is
/// good while nothing was written since, and forgotten when a savepoint rolls back (a rollback
/// changes rows without counting them). A drop reads the dragged item about nine times; over a
/// network each read is a round trip.
///
/// A write may also leave answers it knows for certain (a move: the rows it wrote, their new
/// neighbours, the lists' counts), kept as if just read; writes that touch none of the rows
/// remembered (a change's bookkeeping) carry the answers over (``carry(from:to:except:)``); and a
/// move carries over what it cannot have changed, by each answer's ``MemoScope``
/// (``carry(from:to:sparing:)``).
///
/// Answers about one board outlive the transaction (``BoardMemos``): the next transaction that
/// finds the board at the same version starts from them (see `ReadMemo+Boards.swift`).
///
/// One per connection wrapper, which lives for one transaction; not `Sendable`.
package final class ReadMemo {
    struct Answer {
        var stamp: Int
        var value: any Sendable
        var scope: MemoScope
    }

    var answers: [MemoKey: Answer] = [:]
    /// What an earlier transaction left of a board, good at ``Seed/stamp`` but for ``Seed/stale``:
    /// looked up where `answers` has nothing, never copied (it is shared with ``BoardMemos``); writes
    /// carry it over whole, marking what they made old.
    var seed: Seed?
    /// Where answers about a board outlive this transaction (nil: nowhere).
    let shared: BoardMemos?
    /// The boards this transaction found at a version, and what it will leave for the next ones.
    var boards = BoardsSeen()

    struct Seed {
        var board: String
        var stamp: Int
        var answers: [MemoKey: BoardMemos.Entry]
        /// Answers a write since made old.
        var stale: Set<MemoKey> = []

        func entry(_ key: MemoKey) -> BoardMemos.Entry? {
            guard let entry = answers[key], stale.isEmpty || !stale.contains(key) else { return nil }
            return entry
        }

        /// The answers still good (a copy: only where the seed is left as another state of the board).
        var good: [MemoKey: BoardMemos.Entry] {
            // A copy with the few stale keys taken out: cheaper than filtering, which hashes every key again.
            var good = answers
            for key in stale { good[key] = nil }
            return good
        }
    }

    package init(shared: BoardMemos? = nil) {
        self.shared = shared
    }

    /// The answer remembered under `key`, if nothing was written since (`stamp`: the connection's
    /// ``SQLConnection/totalChangesCount`` now).
    func answer<Value>(_ key: MemoKey, at stamp: Int, as type: Value.Type) -> Value? {
        if let known = answers[key], known.stamp == stamp { return known.value as? Value }
        guard let seed, seed.stamp == stamp, let entry = seed.entry(key) else { return nil }
        return entry.value as? Value
    }

    package func remember(_ value: any Sendable, for key: MemoKey, at stamp: Int, scope: MemoScope) {
        answers[key] = Answer(stamp: stamp, value: value, scope: scope)
    }

    /// After writes that changed none of the rows remembered (a change's bookkeeping): what was
    /// good at `stamp` is good at `now`, except under `stale`, which must be answers no transaction
    /// leaves for the next (a board's version, operation records): a ``VersionStep`` does not name them.
    func carry(from stamp: Int, to now: Int, except stale: Set<MemoKey>) {
        let unnamed = stale.contains { key in
            !key.text.hasPrefix(Self.versionPrefix) && (answers[key]?.scope ?? seed?.answers[key]?.scope).map { $0 != .operations } == true
        }
        if unnamed {
            for board in boards.found.keys { boards.found[board]?.writes = nil }
        } else {
            count(nil, from: stamp, to: now)
        }
        if var seed, seed.stamp == stamp {
            seed.stamp = now
            seed.stale.formUnion(stale.filter { seed.answers[$0] != nil })
            self.seed = seed
        } else {
            seed = nil
        }
        restamp(from: stamp, to: now) { key, _ in !stale.contains(key) }
        for key in stale { answers[key] = nil }
    }

    /// After a move that wrote only `write`'s rows: what was good at `stamp` and depends on none of
    /// them is good at `now`.
    func carry(from stamp: Int, to now: Int, sparing write: RowWrite) {
        count(write, from: stamp, to: now)
        if var seed, seed.stamp == stamp {
            seed.stamp = now
            for (key, entry) in seed.answers where entry.scope.isChanged(by: write) { seed.stale.insert(key) }
            self.seed = seed
        } else {
            seed = nil
        }
        restamp(from: stamp, to: now) { _, known in !known.scope.isChanged(by: write) }
    }

    /// Moves the answers good at `stamp` that `holds` to `now`, in place (by index: no key is hashed).
    private func restamp(from stamp: Int, to now: Int, where holds: (MemoKey, Answer) -> Bool) {
        var index = answers.startIndex
        while index != answers.endIndex {
            let (key, known) = answers[index]
            if known.stamp == stamp && holds(key, known) { answers.values[index].stamp = now }
            answers.formIndex(after: &index)
        }
    }

    /// Moves the seed's answers (those not answered since) into `answers`, if it is good at `stamp`.
    func unpackSeed(at stamp: Int) {
        guard let seed else { return }
        self.seed = nil
        guard seed.stamp == stamp else { return }
        for (key, entry) in seed.good where answers[key]?.stamp != stamp {
            answers[key] = Answer(stamp: stamp, value: entry.value, scope: entry.scope)
        }
    }

    /// After a rollback: nothing read before may still hold, nor the versions found. What an earlier
    /// operation of the transaction left stays: the rollback does not undo it.
    package func forget() {
        answers.removeAll(keepingCapacity: true)
        seed = nil
        boards.found.removeAll()
    }
}

extension ReadMemo {
    /// Where a board's version is kept (an `Int?`: nil for no such board). An engine that reads the
    /// version as it locks the board's row keeps it here, so the operation's own read costs nothing.
    package static func versionKey(_ board: String) -> MemoKey { MemoKey(versionPrefix + board) }

    /// How the text of every ``versionKey(_:)`` begins.
    static let versionPrefix = "version "
}

extension SQLConnection {
    /// `read()`, or its answer from earlier in this transaction if no row was written since.
    func memoized<Value: Sendable>(_ key: MemoKey, _ scope: MemoScope, _ read: () throws -> Value) throws -> Value {
        try memoized(key, scope: { _ in scope }, read)
    }

    /// ``memoized(_:_:_:)`` for an answer whose scope depends on what it says (a row's list, say).
    func memoized<Value: Sendable>(_ key: MemoKey, scope: (Value) -> MemoScope, _ read: () throws -> Value) throws -> Value {
        let stamp = totalChangesCount
        if let known = memo.answer(key, at: stamp, as: Value.self) { return known }
        let value = try read()
        memo.remember(value, for: key, at: stamp, scope: scope(value))
        return value
    }

    /// The answer remembered under `key`, if no row was written since; never reads.
    func remembered<Value>(_ key: MemoKey, as type: Value.Type) -> Value? {
        memo.answer(key, at: totalChangesCount, as: type)
    }

    /// Keeps `value` under `key` as if a read had just answered it (a query that answered more).
    func remember<Value: Sendable>(_ value: Value, for key: MemoKey, _ scope: MemoScope) {
        memo.remember(value, for: key, at: totalChangesCount, scope: scope)
    }
}
