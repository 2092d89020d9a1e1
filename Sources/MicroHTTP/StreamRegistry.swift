import Synchronization

/// The open event streams of one server, for heartbeats and shutdown.
final class StreamRegistry: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: EventStream] = [:]
        var stopping = false
    }

    private let state = Mutex(State())

    /// Adds a stream; returns `false` (and does not add it) once the server is stopping.
    func register(_ stream: EventStream) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    func remove(_ stream: EventStream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// The number of streams whose responses have not been released yet.
    var count: Int {
        state.withLock { $0.streams.count }
    }

    /// Sends a heartbeat comment to every stream (outside the registry lock).
    func heartbeat() {
        for stream in state.withLock({ Array($0.streams.values) }) {
            stream.sendComment("ping")
        }
    }

    /// Refuses new streams and returns the open ones.
    func beginStopping() -> [EventStream] {
        state.withLock { state in
            state.stopping = true
            return Array(state.streams.values)
        }
    }
}
