import Dispatch
import GRDB
import Synchronization

/// Group commit: the operations queued while one commit is on its way to disk share the next
/// durable transaction (one `fsync` for all of them), each in a savepoint of its own.
///
/// Whoever submits when no batch is being committed commits at once — there is no added wait
/// for company, so a lone client sees the latency of one transaction. Operations submitted
/// meanwhile queue up; when a batch is on disk its committer hands the queue to the thread of the
/// first queued operation, which commits everything queued by then as the next batch, and returns
/// to its own caller (no thread commits for others twice in a row). Every operation of a batch is
/// acknowledged only after the batch's `COMMIT` returned.
final class GroupCommit: Sendable {
    private struct State {
        var queue: [StoreOperation] = []
        var committing = false
    }

    private let state = Mutex(State())
    private let writer: SQLiteEngine.Writer

    private let memos: BoardMemos
    private let accessChanges: AccessChanges

    init(writer: SQLiteEngine.Writer, memos: BoardMemos, accessChanges: AccessChanges) {
        self.writer = writer
        self.memos = memos
        self.accessChanges = accessChanges
    }

    /// How many operations the largest batch so far held (for tests and diagnostics).
    let largestBatch = Atomic<Int>(0)

    /// How many operations wait for the next batch (for tests and diagnostics).
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Commits `operation` in the next batch and returns once that batch is durable (or failed);
    /// the operation's own failure, if any, is in ``StoreOperation/failure``.
    func submit(_ operation: StoreOperation) {
        let leads = state.withLock { state in
            state.queue.append(operation)
            if state.committing { return false }
            state.committing = true
            return true
        }
        if !leads {
            operation.wait()
            // Woken either as done, or to commit the next batch (which holds this operation).
            guard operation.leads else { return }
        }
        let batch = state.withLock { state in
            defer { state.queue.removeAll(keepingCapacity: true) }
            return state.queue
        }
        commit(batch)
        let next = state.withLock { state -> StoreOperation? in
            guard let first = state.queue.first else {
                state.committing = false
                return nil
            }
            return first
        }
        if let next {
            next.leads = true
            next.wake()
        }
        for other in batch where other !== operation { other.wake() }
    }

    /// One transaction for the whole batch: each operation's failure is its own, a failure of the
    /// transaction itself (its `COMMIT`, say) is everyone's.
    private func commit(_ batch: [StoreOperation]) {
        largestBatch.max(batch.count)
        do {
            let committed = try writer.writeWithoutTransaction { db in
                // Told while the batch still holds the writer: the next write cannot take its note.
                defer { accessChanges.writeEnded() }
                let connection = SQLiteConnection(db, memos: memos)
                try db.inTransaction(.immediate) {
                    for operation in batch {
                        do {
                            try operation.run?(connection)
                        } catch {
                            operation.fail(error)
                            // An error SQLite answers by ending the transaction takes the batch with it.
                            guard db.isInsideTransaction else { throw error }
                        }
                    }
                    return .commit
                }
                return (memo: connection.memo, stamp: connection.totalChangesCount)
            }
            committed.memo.publish(at: committed.stamp)
        } catch {
            for operation in batch { operation.fail(error) }
        }
    }
}

private extension Atomic<Int> {
    func max(_ value: Int) {
        var current = load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
