import Glibc

/// SIGINT and SIGTERM, held back from the moment this is created: one that arrives before anyone
/// waits stays pending, so ``wait()`` returns at once for it.
///
/// Create it first thing on the main thread, before any other thread exists: threads inherit the
/// blocked mask, so no thread ever takes these signals except through ``wait()``. (libdispatch's
/// signal sources, used before, re-raise a signal at the thread that registered the source, and one
/// SIGTERM in many hundreds sent right after start-up was never seen; the server then ran on.)
struct TerminationSignals: ~Copyable {
    private let signals: sigset_t

    init() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        self.signals = signals
    }

    /// Blocks the calling thread until SIGINT or SIGTERM has arrived; returns it.
    func wait() -> Int32 {
        var signals = signals
        var number: Int32 = 0
        while sigwait(&signals, &number) != 0 {}
        return number
    }
}
