import Synchronization

/// What an engine that several processes share hears of changes to who may do what (accounts,
/// sign-ins, memberships, boards), so that a server answers a request's sign-in and role from
/// memory (``AccessMemory``) instead of asking the database each time (a round trip each on
/// PostgreSQL), and still sees each such change as soon as it hears of it.
///
/// An answer read while listening holds as long as the watch's epoch is the one read before the
/// question was asked. The epoch moves with every such change (the database tells every listener,
/// whoever made the change; the process that made it moves it at once) and when listening starts
/// or stops (a notice may have been missed meanwhile). While not listening there is no epoch, and
/// every request asks the database.
///
/// On SQLite the notices are an ``AccessSignal``'s count, which every process that changes access
/// moves once the change committed: the watch always listens, and the epoch moves when the count did.
package final class AccessWatch: Sendable {
    private struct State {
        var isListening = false
        var epoch = 0
        /// The signal's count when the epoch last moved for it.
        var heard: UInt64 = 0
    }
    private let state: Mutex<State>
    private let signal: AccessSignal?

    /// A watch that listens once told so (``setListening(_:)``), to notices it is told of (``changed()``).
    package init() {
        state = Mutex(State())
        signal = nil
    }

    /// A watch that listens to `signal`.
    init(heeding signal: AccessSignal) {
        state = Mutex(State(isListening: true, heard: signal.value))
        self.signal = signal
    }

    /// The epoch now; nil while not listening.
    package var epoch: Int? {
        state.withLock { state in
            if let count = signal?.value, count != state.heard {
                state.heard = count
                state.epoch += 1
            }
            return state.isListening ? state.epoch : nil
        }
    }

    /// Listening started (once its `LISTEN` was answered) or stopped.
    package func setListening(_ isListening: Bool) {
        state.withLock {
            $0.isListening = isListening
            $0.epoch += 1
        }
    }

    /// Someone changed accounts, sign-ins, memberships or boards.
    package func changed() {
        state.withLock { $0.epoch += 1 }
    }
}
