import DragboardStore

extension PostgresEngine {
    /// Commits `operation` with the others of this process waiting for its board: one transaction,
    /// one lock of the board's row (which reads all their operation records) and one `COMMIT` for
    /// the batch, instead of each waiting for the row in PostgreSQL and taking it in turn. Those
    /// that queued while the batch waited for the row (another instance held it) join it once it
    /// holds the row, their records read in one statement.
    ///
    /// - An operation that fails before writing fails alone; the batch goes on.
    /// - One that fails after writing, or whose statement PostgreSQL refused (which aborts the
    ///   transaction), fails with its error; the transaction rolls back, and the others run again,
    ///   each in a transaction of its own (an operation's work may run more than once, as
    ///   ``BoardStore`` retries it; only a commit makes it count).
    /// - A failure of the transaction itself (its `COMMIT`, a lost connection) is everyone's.
    func commit(_ operation: StoreOperation) {
        batches.submit(operation, lane: operation.board) { batch, joining in commit(batch, joining) }
    }

    private func commit(_ first: [StoreOperation], _ joining: BatchQueue.Joining) {
        var batch = first
        var doomedBy: StoreOperation?
        do {
            try transaction("BEGIN") { db in
                let connection = db as! PostgresSQLConnection
                try connection.lock(board: batch[0].board, readingOperations: batch.compactMap(\.id))
                let joined = joining()
                if !joined.isEmpty {
                    try connection.readRecords(of: joined.compactMap(\.id))
                    batch += joined
                }
                for operation in batch {
                    do {
                        try operation.run?(db)
                    } catch {
                        guard connection.doomed == nil else {
                            doomedBy = operation  // it fails with what the rollback answers (its error, translated)
                            return  // the transaction rolls back: PostgreSQL would refuse what follows anyway
                        }
                        operation.fail(error)
                    }
                }
            }
        } catch {
            guard let doomedBy else {
                for operation in batch { operation.fail(error) }
                return
            }
            doomedBy.fail(error)
            for operation in batch where operation.failure == nil {
                commitAlone(operation)
            }
        }
    }

    /// One operation in a transaction of its own.
    private func commitAlone(_ operation: StoreOperation) {
        do {
            try transaction("BEGIN") { db in
                try db.lock(board: operation.board, readingOperation: operation.id)
                try operation.run?(db)
            }
        } catch {
            operation.fail(error)
        }
    }
}
