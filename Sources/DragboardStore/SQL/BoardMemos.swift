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
/// One per engine (one database); shared by its connections' transactions.
package final class BoardMemos: Sendable {
    /// One remembered answer.
    struct Entry: Sendable {
        var value: any Sendable
        var scope: MemoScope
    }

    private struct Snapshot {
        var mark: BoardMark
        var answers: [String: Entry]
        var lastUse: UInt64
    }

    private struct State {
        var boards: [String: Snapshot] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Boards kept at once (the least recently used goes first) and answers kept per board.
    let boardLimit: Int
    let answerLimit: Int

    package init(boardLimit: Int = 64, answerLimit: Int = 2_048) {
        self.boardLimit = boardLimit
        self.answerLimit = answerLimit
    }

    /// What was kept of `board` at exactly this mark.
    func answers(board: String, at mark: BoardMark) -> [String: Entry]? {
        state.withLock { state in
            guard state.boards[board]?.mark == mark else { return nil }
            state.clock += 1
            state.boards[board]?.lastUse = state.clock
            return state.boards[board]?.answers
        }
    }

    /// Keeps `answers` about `board` at `mark`: added to what is kept at that same mark (both
    /// describe it), else instead of it (the newest state wins).
    func keep(_ answers: [String: Entry], board: String, at mark: BoardMark) {
        let answers = answers.count <= answerLimit ? answers : Dictionary(uniqueKeysWithValues: answers.prefix(answerLimit).map { ($0.key, $0.value) })
        state.withLock { state in
            state.clock += 1
            // Mutated in place (no copy unless a transaction still holds the answers).
            if state.boards[board]?.mark == mark, let count = state.boards[board]?.answers.count, count > answers.count {
                for (key, entry) in answers where (state.boards[board]?.answers.count ?? 0) < answerLimit {
                    state.boards[board]?.answers[key] = entry
                }
                state.boards[board]?.lastUse = state.clock
                return
            }
            // A new state, or one that knows at least as much (it started from what was kept).
            state.boards[board] = Snapshot(mark: mark, answers: answers, lastUse: state.clock)
            if state.boards.count > boardLimit, let oldest = state.boards.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.boards[oldest] = nil
            }
        }
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
