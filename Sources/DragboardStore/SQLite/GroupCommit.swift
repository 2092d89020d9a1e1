import GRDB
import Synchronization

/// Group commit: the operations queued while one commit is on its way to disk share the next
/// durable transaction (one `fsync` for all of them), each in a savepoint of its own.
///
/// One lane of ``BatchQueue`` for the file (it has one writer): a lone client commits at once, and
/// every operation of a batch is acknowledged only after the batch's `COMMIT` returned.
final class GroupCommit: Sendable {
    private let queue = BatchQueue()
    private let writer: SQLiteEngine.Writer

    private let memos: BoardMemos
    private let accessChanges: AccessChanges

    init(writer: SQLiteEngine.Writer, memos: BoardMemos, accessChanges: AccessChanges) {
        self.writer = writer
        self.memos = memos
        self.accessChanges = accessChanges
    }

    /// How many operations the largest batch so far held (for tests and diagnostics).
    var largestBatch: Int { queue.largestBatch.load(ordering: .relaxed) }

    /// How many operations wait for the next batch (for tests and diagnostics).
    var queuedCount: Int { queue.queuedCount() }

    /// Commits `operation` in the next batch and returns once that batch is durable (or failed);
    /// the operation's own failure, if any, is in ``StoreOperation/failure``.
    func submit(_ operation: StoreOperation) {
        queue.submit(operation) { batch, _ in commit(batch) }
    }

    /// One transaction for the whole batch: each operation's failure is its own, a failure of the
    /// transaction itself (its `COMMIT`, say) is everyone's.
    private func commit(_ batch: [StoreOperation]) {
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
