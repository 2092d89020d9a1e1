import Dragboard

/// The boards one transaction found at a mark, and the answers it leaves for the next
/// transactions (``BoardMemos``).
struct BoardsSeen {
    struct Found {
        var mark: BoardMark
        /// The connection's count of changed rows when the mark was read.
        var stamp: Int
    }

    struct Leaving {
        var board: String
        var mark: BoardMark
        var answers: [String: BoardMemos.Entry]
    }

    var found: [String: Found] = [:]
    var leaving: [Leaving] = []
}

extension ReadMemo {
    /// Lists of more rows than this are not kept past their transaction (memory).
    static let largestKeptRows = 1_000

    /// This transaction read `board`'s mark (as of `stamp`): it starts from what an earlier
    /// transaction left of the board at that mark.
    package func found(board: String, at mark: BoardMark, stamp: Int) {
        boards.found[board] = BoardsSeen.Found(mark: mark, stamp: stamp)
        guard let known = shared?.answers(board: board, at: mark) else { return }
        unpackSeed(at: stamp)  // another board's (a move that takes rows from it)
        seed = Seed(board: board, stamp: stamp, answers: known)
    }

    /// What this transaction knows now (`stamp`) of `board`, which it changed to `version` in a
    /// transaction that writes as `writer`, is left for the next transactions: shared at once where
    /// the writer is known (no other transaction can find the board at that mark before this one
    /// commits), else once it commits (``publish(at:)``). Needs the board's lists to be known, which
    /// tell which answers are about the board alone.
    func leave(board: String, version: Int, writer: String?, at stamp: Int) {
        guard let writer, let found = boards.found[board] else { return }
        keep(board: board, at: BoardMark(incarnation: found.mark.incarnation, version: version, writer: writer), stamp: stamp, now: !writer.isEmpty)
    }

    private func keep(board: String, at mark: BoardMark, stamp: Int, now: Bool) {
        guard let shared, let lists = answer(StoreQueries.listsKey(board), at: stamp, as: [ListRecord].self) else { return }
        let ids = Set(lists.map(\.id))
        // The seed is about this board alone, as it was left. Still packed and good at the mark it
        // was found at, it is what the memos keep there already: only what this transaction learnt
        // goes (most reads learn nothing, and then nothing is kept at all).
        let seed = self.seed.flatMap { $0.board == board && $0.stamp == stamp ? $0 : nil }
        let seedIsKept = seed?.stale.isEmpty == true && boards.found[board]?.mark == mark
        var kept = seedIsKept ? [:] : seed?.good ?? [:]
        for (key, known) in answers where known.stamp == stamp && known.scope.isWhollyAbout(board, lists: ids) {
            kept[key] = BoardMemos.Entry(value: known.value, scope: known.scope)
        }
        kept[Self.versionKey(board)] = nil  // what the next transaction reads to find this
        boards.leaving.removeAll { $0.board == board }
        if kept.isEmpty && seedIsKept { return }
        if now {
            shared.keep(kept, board: board, at: mark)
        } else {
            boards.leaving.append(.init(board: board, mark: mark, answers: kept))
        }
    }

    /// Once the transaction committed (or a read ended), at `stamp`: keeps what it left, and what it
    /// knows of each board it found and wrote nothing after (instead of what it left of it earlier:
    /// with no write since, that is more).
    package func publish(at stamp: Int) {
        for (board, found) in boards.found where found.stamp == stamp {
            keep(board: board, at: found.mark, stamp: stamp, now: false)
        }
        for leaving in boards.leaving {
            shared?.keep(leaving.answers, board: leaving.board, at: leaving.mark)
        }
        boards = BoardsSeen()
    }
}
