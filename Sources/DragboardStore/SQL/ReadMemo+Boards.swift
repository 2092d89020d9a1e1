import Dragboard

/// The boards one transaction found at a mark, and the answers it leaves for the next
/// transactions (``BoardMemos``).
struct BoardsSeen {
    struct Found {
        var mark: BoardMark
        /// The connection's count of changed rows when the mark was read.
        var stamp: Int
        /// What this transaction wrote of the board since it first found it, at ``mark`` then, while
        /// every write is one the memo could account for (see ``VersionStep``).
        var writes: Writes?
    }

    /// The rows written since the board was found at `base`, good up to the count of changed rows `stamp`.
    struct Writes {
        var base: BoardMark
        var stamp: Int
        var write = RowWrite.none
    }

    struct Leaving {
        var board: String
        var mark: BoardMark
        var answers: [MemoKey: BoardMemos.Entry]
    }

    var found: [String: Found] = [:]
    var leaving: [Leaving] = []
}

extension ReadMemo {
    /// Lists of more rows than this are not kept past their transaction (memory).
    static let largestKeptRows = 1_000

    /// This transaction read `board`'s mark (as of `stamp`): it starts from what an earlier
    /// transaction left of the board at that mark, or from what another process's `step` to that
    /// mark left of a state this process knew.
    package func found(board: String, at mark: BoardMark, after step: VersionStep? = nil, stamp: Int) {
        // Found again after its own writes (a batch's next operation): what it wrote counts from the first.
        let writes = boards.found[board]?.writes.flatMap { $0.stamp == stamp && $0.base.incarnation == mark.incarnation ? $0 : nil }
        boards.found[board] = BoardsSeen.Found(mark: mark, stamp: stamp, writes: writes ?? BoardsSeen.Writes(base: mark, stamp: stamp))
        guard let known = shared?.answers(board: board, at: mark, after: step) else { return }
        unpackSeed(at: stamp)  // another board's (a move that takes rows from it)
        seed = Seed(board: board, stamp: stamp, answers: known)
    }

    /// What this transaction changed of `board`, which it raises to `version` (as of `stamp`), for
    /// the board's row: nil where it wrote what the memo cannot account for, or found the board
    /// through an engine that cannot name writers (one process: nobody else to tell).
    func step(of board: String, to version: Int, at stamp: Int) -> VersionStep? {
        guard let writes = boards.found[board]?.writes, writes.stamp == stamp, !writes.base.writer.isEmpty else { return nil }
        return VersionStep(version: version, baseVersion: writes.base.version, baseWriter: writes.base.writer, write: writes.write)
    }

    /// After a change's bookkeeping, which raised `board` to `version` (writes from `stamp` to `now`
    /// that changed no answer but those under `stale`, see ``carry(from:to:except:)``): the board is
    /// at that version now, unless the change deleted it. Where every write since the board was
    /// found was a move or bookkeeping, it did not, and a batch's next operation need not read the
    /// version again.
    func bookkept(board: String, version: Int, from stamp: Int, to now: Int, except stale: Set<MemoKey>) {
        carry(from: stamp, to: now, except: stale)
        if boards.found[board]?.writes?.stamp == now {
            remember(Optional(version), for: Self.versionKey(board), at: now, scope: .board(board))
        }
    }

    /// Counts `write` (nil: the bookkeeping's, which writes no answer kept) into what this transaction
    /// changed of the boards it found, where it came right after what they count.
    func count(_ write: RowWrite?, from stamp: Int, to now: Int) {
        for (board, found) in boards.found {
            guard var writes = found.writes, writes.stamp == stamp else { continue }
            writes.stamp = now
            // Where no writer is named (one process), no step is told: only the stamp matters.
            if let write, !writes.base.writer.isEmpty { writes.write.formUnion(write) }
            boards.found[board]?.writes = writes
        }
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

extension ReadMemo {
    /// ``found(board:at:after:stamp:)`` with what a query of ``SQLConnection/boardMarkColumns`` read
    /// (its first four columns).
    package func found(board: String, row: SQLRow, stamp: Int) {
        let step = (row[3] as String?).flatMap(VersionStep.init(decoding:))
        found(board: board, at: BoardMark(incarnation: row[1], version: row[0], writer: row[2]), after: step, stamp: stamp)
    }
}

extension SQLConnection {
    /// The columns of a query of the `board` table that say which state the board is in: its version,
    /// incarnation, writer (``boardWriterColumn``) and last ``VersionStep``, as
    /// ``ReadMemo/found(board:row:stamp:)`` reads them.
    package var boardMarkColumns: String { "board.version, board.incarnation, \(boardWriterColumn), board.changed" }
}
