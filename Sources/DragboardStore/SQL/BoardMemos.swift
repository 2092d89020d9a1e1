import Foundation
import Synchronization

/// What transactions read of each board, kept for the next transaction that finds the board at
/// the same version: a drag start, its drop and its end ask for the same lists, containers and rows,
/// and over a network each read is a round trip (PostgreSQL).
///
/// Safe because every change to a board's rows raises its version in the same transaction (one
/// per operation, whichever process makes it), and a board made again under a deleted board's id
/// has a new incarnation: an answer kept for a ``BoardMark`` describes that state and no other. Only
/// answers wholly about one board are kept (``MemoScope/isWhollyAbout(_:lists:)``), and only once
/// no other transaction can find the board at that mark without their transaction having committed.
///
/// Another process's change to a board leads from a state kept here to its new one where the board's
/// row says what it wrote (``VersionStep``): the answers it cannot have changed hold at the new state.
///
/// One per engine (one database); shared by its connections' transactions.
package final class BoardMemos: Sendable {
    /// One remembered answer.
    struct Entry: Sendable {
        var value: any Sendable
        var scope: MemoScope
    }

    private struct Snapshot {
        var mark: BoardMark
        var answers: [MemoKey: Entry]
    }

    /// A board's last few states, newest version first: a read that began just before a change still
    /// finds the state it reads.
    private struct Board {
        var states: [Snapshot]
        var lastUse: UInt64
    }

    private struct State {
        var boards: [String: Board] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Boards kept at once (the least recently used goes first), states kept per board, and answers
    /// kept per state.
    let boardLimit: Int
    let stateLimit: Int
    let answerLimit: Int

    package init(boardLimit: Int = 64, stateLimit: Int = 4, answerLimit: Int = 2_048) {
        self.boardLimit = boardLimit
        self.stateLimit = stateLimit
        self.answerLimit = answerLimit
    }

    /// What was kept of `board` at exactly this mark; else, where `step` (the board row's, read
    /// with the mark) led to it from a state kept here, what that state kept that the step cannot
    /// have made old, kept at `mark` from now on.
    func answers(board: String, at mark: BoardMark, after step: VersionStep? = nil) -> [MemoKey: Entry]? {
        state.withLock { state in
            guard let states = state.boards[board]?.states else { return nil }
            state.clock += 1
            state.boards[board]?.lastUse = state.clock
            if let kept = states.first(where: { $0.mark == mark }) { return kept.answers }
            guard let step, step.version == mark.version,
                  let base = states.first(where: { $0.mark == BoardMark(incarnation: mark.incarnation, version: step.baseVersion, writer: step.baseWriter) })
            else { return nil }
            var answers = base.answers.compactMapValues { $0.after(step.write) }
            StoreQueries.spreadCounts(in: &answers, board: board)
            Self.insert(Snapshot(mark: mark, answers: answers), into: &state.boards[board]!.states, limit: stateLimit)
            return answers
        }
    }

    /// Keeps `answers` about `board` at `mark`: added to what is kept at that same mark (both
    /// describe it), else as another of the board's states.
    func keep(_ answers: [MemoKey: Entry], board: String, at mark: BoardMark) {
        let answers = answers.count <= answerLimit ? answers : Dictionary(uniqueKeysWithValues: answers.prefix(answerLimit).map { ($0.key, $0.value) })
        state.withLock { state in
            state.clock += 1
            // Taken out while it changes, so its states are not copied and `board` is hashed twice in all.
            guard var kept = state.boards.removeValue(forKey: board) else {
                state.boards[board] = Board(states: [Snapshot(mark: mark, answers: answers)], lastUse: state.clock)
                if state.boards.count > boardLimit, let oldest = state.boards.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                    state.boards[oldest] = nil
                }
                return
            }
            defer { state.boards[board] = kept }
            kept.lastUse = state.clock
            if let index = kept.states.firstIndex(where: { $0.mark == mark }) {
                // Mutated in place (no copy unless a transaction still holds the answers).
                for (key, entry) in answers where kept.states[index].answers.count < answerLimit || kept.states[index].answers[key] != nil {
                    kept.states[index].answers[key] = entry
                }
                return
            }
            Self.insert(Snapshot(mark: mark, answers: answers), into: &kept.states, limit: stateLimit)
        }
    }

    /// Newest version first; past the limit the oldest goes (a late read's own, maybe).
    private static func insert(_ snapshot: Snapshot, into states: inout [Snapshot], limit: Int) {
        let position = states.firstIndex { $0.mark.version < snapshot.mark.version } ?? states.count
        states.insert(snapshot, at: position)
        if states.count > limit { states.removeLast() }
    }

    /// A new board row's incarnation: never one an earlier row under its id had.
    package static func newIncarnation() -> String {
        UUID().uuidString
    }

    /// Forgets every board (a test's way to start cold).
    package func removeAll() {
        state.withLock { $0.boards.removeAll() }
    }
}

/// One committed state of a board: its row's incarnation, its version and (where the engine can say)
/// the transaction that wrote that version (PostgreSQL's `xmin`; SQLite: empty).
package struct BoardMark: Hashable, Sendable {
    package var incarnation: String
    package var version: Int
    package var writer: String

    package init(incarnation: String, version: Int, writer: String) {
        self.incarnation = incarnation
        self.version = version
        self.writer = writer
    }
}

extension BoardMemos.Entry {
    /// This answer after `write`: itself where the write cannot have changed it; a board's list
    /// counts brought up to date, where the write says how they changed; else nil (read it again).
    func after(_ write: RowWrite) -> Self? {
        guard scope.isChanged(by: write) else { return self }
        guard case .allRows = scope, let changes = write.counts, var counts = value as? [StoreQueries.ListCount] else { return nil }
        for index in counts.indices { counts[index].count += changes[counts[index].list] ?? 0 }
        return Self(value: counts, scope: scope)
    }
}
