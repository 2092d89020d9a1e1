import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught from the moment this is created: one that arrives before anyone
/// waits is kept, so ``wait()`` returns at once for it. Owned by the command's task, which keeps
/// the signal sources alive.
final class TerminationSignals {
    private let received = ReceivedSignal()
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "dragboard.signals")
        let received = received
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)  // delivered to the source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { received.record(number) }
            source.resume()
            return source
        }
    }

    /// Suspends until SIGINT or SIGTERM has arrived; returns the first one.
    func wait() async -> Int32 {
        await received.wait()
    }
}

/// The first signal, and the task waiting for it.
private final class ReceivedSignal: Sendable {
    private struct State {
        var signal: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }

    private let state = Mutex(State())

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Int32? in
                if let signal = state.signal { return signal }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func record(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            guard state.signal == nil else { return nil }
            state.signal = number
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: number)
    }
}
