import Synchronization

/// The open event streams of one server: their caps, heartbeats, maximum age and shutdown.
///
/// Streams are long-lived connections; without caps of their own, idle streams (kept alive by the
/// heartbeats) could take every connection slot and block all other requests.
final class StreamRegistry: Sendable {
    /// How many streams may be open and for how long.
    struct Limits: Sendable {
        var total: Int
        var perAddress: Int
        var maxAge: Duration?
    }

    private struct Entry {
        let stream: EventStream
        let address: String
        let opened: ContinuousClock.Instant
    }

    private struct State {
        var streams: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var stopping = false
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits = Limits(total: .max, perAddress: .max, maxAge: nil)) {
        self.limits = limits
    }

    /// Adds a stream for a client address, unless a cap is reached or the server is stopping.
    /// - Returns: `nil` when added, otherwise the error to answer with (503 total cap or stopping, 429 per address).
    func register(_ stream: EventStream, address: String) -> HTTPError? {
        state.withLock { state in
            if state.stopping { return .stopping }
            if state.streams.count >= limits.total { return .tooManyStreams(limit: limits.total) }
            let fromAddress = state.perAddress[address, default: 0]
            if fromAddress >= limits.perAddress {
                // The address's oldest stream ends at its maximum age (the browser reconnects then), or a tab closes sooner.
                var seconds = 60
                if let maxAge = limits.maxAge, let oldest = state.streams.values.filter({ $0.address == address }).map(\.opened).min() {
                    seconds = max(1, Int((maxAge - (ContinuousClock.now - oldest)).components.seconds) + 1)
                }
                return .tooManyStreamsFromAddress(limit: limits.perAddress, retryAfter: seconds)
            }
            state.streams[ObjectIdentifier(stream)] = Entry(stream: stream, address: address, opened: .now)
            state.perAddress[address] = fromAddress + 1
            return nil
        }
    }

    /// Forgets a stream (its response was released). Idempotent.
    func remove(_ stream: EventStream) {
        state.withLock { state in
            guard let entry = state.streams.removeValue(forKey: ObjectIdentifier(stream)) else { return }
            let remaining = state.perAddress[entry.address, default: 1] - 1
            state.perAddress[entry.address] = remaining > 0 ? remaining : nil
        }
    }

    /// The number of streams whose responses have not been released yet.
    var count: Int {
        state.withLock { $0.streams.count }
    }

    /// Sends a heartbeat comment to every stream (outside the registry lock).
    func heartbeat() {
        for stream in state.withLock({ $0.streams.values.map(\.stream) }) {
            stream.sendComment("ping")
        }
    }

    /// Ends the streams older than the maximum age; the browser's `EventSource` reconnects by itself.
    func closeExpired(now: ContinuousClock.Instant = .now) {
        guard let maxAge = limits.maxAge else { return }
        let expired = state.withLock { state in
            state.streams.values.filter { now - $0.opened >= maxAge }.map(\.stream)
        }
        for stream in expired { stream.close() }
    }

    /// Refuses new streams and returns the open ones.
    func beginStopping() -> [EventStream] {
        state.withLock { state in
            state.stopping = true
            return state.streams.values.map(\.stream)
        }
    }
}
