import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// One bulk-lane request: its handler, run on a pool thread while libmicrohttpd keeps the connection
/// suspended, and the response it produced.
final class BulkJob: Sendable {
    enum Outcome: Sendable {
        /// Not run yet, or running; the connection is suspended.
        case pending
        /// The handler's response, to be queued when libmicrohttpd calls the access handler again.
        case answered(Response)
        /// Given up (server stopping): the connection was resumed to be answered with 503.
        case abandoned
    }

    private struct State {
        var outcome = Outcome.pending
        var started = false
    }

    let connection: ConnectionHandle
    private let work: @Sendable () -> Response
    private let cancel: @Sendable () -> Void
    private let state = Mutex(State())

    /// - Parameter cancel: Called instead of `work` when the job is abandoned before it started (an upload's
    ///   sink is then aborted, so its temporary file does not outlive the request).
    init(connection: ConnectionHandle, work: @escaping @Sendable () -> Response, cancel: @escaping @Sendable () -> Void = {}) {
        self.connection = connection
        self.work = work
        self.cancel = cancel
    }

    /// Runs the handler and resumes the connection, unless the job was abandoned meanwhile.
    func run() {
        let start = state.withLock { state -> Bool in
            guard case .pending = state.outcome else { return false }
            state.started = true
            return true
        }
        guard start else { return }
        let response = work()
        let resume = state.withLock { state -> Bool in
            guard case .pending = state.outcome else { return false }
            state.outcome = .answered(response)
            return true
        }
        if resume { MHD_resume_connection(connection.raw) }
    }

    /// Gives up on the job; its connection is resumed exactly once, by whichever of `run` and `abandon` ends it.
    func abandon() {
        let (resume, started) = state.withLock { state -> (Bool, Bool) in
            guard case .pending = state.outcome else { return (false, state.started) }
            state.outcome = .abandoned
            return (true, state.started)
        }
        if resume, !started { cancel() }
        if resume { MHD_resume_connection(connection.raw) }
    }

    var result: Outcome { state.withLock { $0.outcome } }
}

/// A small, bounded pool of threads for bulk-lane handlers (see ``Router/Lane``).
///
/// Threads, not Swift tasks: handlers are synchronous and may block on the database, which must not
/// tie up the cooperative pool. The queue is bounded so that a flood of slow requests is refused with
/// 503 instead of piling up.
final class BulkPool: Sendable {
    private struct State {
        var queue: [BulkJob] = []
        /// Jobs taken by a worker and not yet done.
        var running: [BulkJob] = []
        /// Jobs admitted and not yet answered (queued, running, or resumed but not yet taken back).
        var suspended = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let workers: Int
    private let queueLimit: Int

    /// Creates the pool; ``start()`` launches its threads. At most `queueLimit` jobs may wait for a worker.
    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Launches the worker threads (once, when the server starts).
    func start() {
        for index in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "MicroHTTP bulk \(index)"
            thread.start()
        }
    }

    /// Reserves room for one job; `false` when the queue is full or the pool is stopping.
    func reserve() -> Bool {
        state.withLock { state in
            guard !state.stopping, state.suspended < workers + queueLimit else { return false }
            state.suspended += 1
            return true
        }
    }

    /// Queues a job whose room was reserved and whose connection is now suspended.
    func enqueue(_ job: BulkJob) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.queue.append(job)
            return true
        }
        if accepted { wakeUp.signal() } else { job.abandon() }
    }

    /// The access handler took the job's outcome back: its connection is no longer suspended.
    func taken() {
        state.withLock { $0.suspended -= 1 }
    }

    /// Connections suspended for bulk work and not yet resumed and answered.
    var suspendedCount: Int { state.withLock { $0.suspended } }

    /// Refuses new jobs, lets running ones finish for up to `grace`, then abandons the rest (their
    /// connections are resumed and answered 503), so that no connection stays suspended.
    func stop(grace: Duration) {
        let queued = state.withLock { state -> [BulkJob] in
            state.stopping = true
            defer { state.queue = [] }
            return state.queue
        }
        for job in queued { job.abandon() }
        for _ in 0..<workers { wakeUp.signal() }
        let deadline = ContinuousClock.now + grace
        while !state.withLock({ $0.running.isEmpty }), ContinuousClock.now < deadline {
            usleep(2_000)
        }
        for job in state.withLock({ $0.running }) { job.abandon() }
    }

    private func work() {
        while true {
            wakeUp.wait()
            // Taken from the queue and marked running in one step, so `stop` never misses a job.
            let next = state.withLock { state -> BulkJob?? in
                if !state.queue.isEmpty {
                    let job = state.queue.removeFirst()
                    state.running.append(job)
                    return job
                }
                return state.stopping ? .some(nil) : nil
            }
            guard let job = next else { continue }  // another worker took the job
            guard let job else { return }  // stopping
            job.run()
            state.withLock { $0.running.removeAll { $0 === job } }
        }
    }
}
