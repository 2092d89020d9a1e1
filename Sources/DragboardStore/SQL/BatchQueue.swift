import Synchronization

/// Operations that queue, lane by lane, while a batch of their lane commits: the next batch takes
/// all of them (the engine's group commit).
///
/// Whoever submits to a lane where no batch is being committed commits at once — there is no
/// added wait for company, so a lone client sees the latency of one transaction. Operations
/// submitted meanwhile queue up; when a batch is done its committer hands the queue to the thread
/// of the first queued operation, which commits everything queued by then as the next batch, and
/// returns to its own caller (no thread commits for others twice in a row). Every operation of a
/// batch returns only once the batch is done.
///
/// A batch may also take, part-way, what queued since it began (``Joining``): PostgreSQL's, once it
/// holds its board after waiting for another instance, takes those that queued during that wait.
///
/// SQLite has one lane (one writer for the file); PostgreSQL one per board (its row lock).
package final class BatchQueue: Sendable {
    private struct Lane {
        var queue: [StoreOperation] = []
        var committing = false
    }

    private let lanes = Mutex([String: Lane]())

    /// How many operations the largest batch so far held (for tests and diagnostics).
    package let largestBatch = Atomic<Int>(0)

    package init() {}

    /// How many operations wait for the next batch of `lane` (for tests and diagnostics).
    package func queuedCount(lane: String = "") -> Int {
        lanes.withLock { $0[lane]?.queue.count ?? 0 }
    }

    /// Takes the operations queued on a batch's lane since the batch began, which it then commits
    /// as its own (none: the batch is what it began with).
    package typealias Joining = () -> [StoreOperation]

    /// Commits `operation` in the next batch of `lane` (`commit` runs the batch, on this thread or
    /// another submitter's) and returns once that batch is done.
    package func submit(_ operation: StoreOperation, lane: String = "", commit: ([StoreOperation], Joining) -> Void) {
        let leads = lanes.withLock { lanes in
            lanes[lane, default: Lane()].queue.append(operation)
            if lanes[lane]!.committing { return false }
            lanes[lane]!.committing = true
            return true
        }
        if !leads {
            operation.wait()
            // Woken either as done, or to commit the next batch (which holds this operation).
            guard operation.leads else { return }
        }
        let batch = lanes.withLock { lanes in
            defer { lanes[lane]!.queue.removeAll(keepingCapacity: true) }
            return lanes[lane]!.queue
        }
        var joined: [StoreOperation] = []
        commit(batch) {
            let more = lanes.withLock { lanes in
                defer { lanes[lane]!.queue.removeAll(keepingCapacity: true) }
                return lanes[lane]!.queue
            }
            joined += more
            return more
        }
        largestBatch.max(batch.count + joined.count)
        let next = lanes.withLock { lanes -> StoreOperation? in
            guard let first = lanes[lane]!.queue.first else {
                lanes[lane]!.committing = false
                return nil
            }
            return first
        }
        if let next {
            next.leads = true
            next.wake()
        }
        for other in batch + joined where other !== operation { other.wake() }
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
