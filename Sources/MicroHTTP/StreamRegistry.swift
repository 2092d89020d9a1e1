import Synchronization

/// The open event streams of one server: their caps, heartbeats, hang-ups, maximum age and shutdown.
///
/// Streams are long-lived connections; without caps of their own, idle streams (kept alive by the
/// heartbeats) could take every connection slot and block all other requests. The last ``Limits/reserve``
/// slots go only to addresses holding fewer than ``lightUse`` streams, so many addresses each within their
/// share cannot fill the server: a newcomer still gets its stream.
final class StreamRegistry: Sendable {
    /// How many streams may be open and for how long.
    struct Limits: Sendable {
        var total: Int
        var perAddress: Int
        var reserve: Int = 0
        var maxAge: Duration?
    }

    /// Streams an address may still open when only the reserve is left (a person with a few tabs).
    static let lightUse = 4

    private struct Entry {
        let stream: EventStream
        let address: String
        let opened: ContinuousClock.Instant
        let hangup: UInt64?
    }

    private struct State {
        var streams: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var stopping = false
    }

    let limits: Limits
    private let state = Mutex(State())
    private let hangups = StreamHangups()

    init(limits: Limits = Limits(total: .max, perAddress: .max, maxAge: nil)) {
        self.limits = limits
    }

    /// Adds a stream for a client address, unless a cap is reached or the server is stopping, and watches
    /// its socket for the client leaving.
    /// - Returns: `nil` when added, otherwise the error to answer with (503 total cap or stopping, 429 per
    ///   address or when only the reserve is left).
    func register(_ stream: EventStream, address: String, socket: Int32 = -1) -> HTTPError? {
        state.withLock { state in
            if state.stopping { return .stopping }
            if state.streams.count >= limits.total { return .tooManyStreams(limit: limits.total) }
            let fromAddress = state.perAddress[address, default: 0]
            if state.streams.count >= limits.total - limits.reserve, fromAddress >= Self.lightUse {
                return .streamsReserved(lightUse: Self.lightUse, retryAfter: retryAfter(state, address: address))
            }
            if fromAddress >= limits.perAddress {
                return .tooManyStreamsFromAddress(limit: limits.perAddress, retryAfter: retryAfter(state, address: address))
            }
            let hangup = hangups.watch(stream, socket: socket)
            state.streams[ObjectIdentifier(stream)] = Entry(stream: stream, address: address, opened: .now, hangup: hangup)
            state.perAddress[address] = fromAddress + 1
            return nil
        }
    }

    /// Seconds until the address's oldest stream ends at its maximum age (the browser reconnects then);
    /// a tab closing frees a slot sooner.
    private func retryAfter(_ state: State, address: String) -> Int {
        guard let maxAge = limits.maxAge, let oldest = state.streams.values.filter({ $0.address == address }).map(\.opened).min() else { return 60 }
        return max(1, Int((maxAge - (ContinuousClock.now - oldest)).components.seconds) + 1)
    }

    /// Forgets a stream (its response was released). Idempotent.
    func remove(_ stream: EventStream) {
        let hangup = state.withLock { state -> UInt64? in
            guard let entry = state.streams.removeValue(forKey: ObjectIdentifier(stream)) else { return nil }
            let remaining = state.perAddress[entry.address, default: 1] - 1
            state.perAddress[entry.address] = remaining > 0 ? remaining : nil
            return entry.hangup
        }
        if let hangup { hangups.forget(hangup) }
    }

    /// Ends the streams whose clients left (closed the tab, reloaded): their slots are free as soon as
    /// libmicrohttpd releases them, not at the next heartbeat.
    /// - Returns: How many were ended.
    @discardableResult
    func closeDeparted() -> Int {
        let departed = hangups.departed()
        for stream in departed { stream.close() }
        return departed.count
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
