import CoreMetrics
import Glibc
import MicroHTTP
import Prometheus
import Synchronization

/// What an operator watches, in Prometheus' text format (`GET /metrics`), through swift-metrics
/// backed by swift-prometheus: requests by route and status, the time of drops, the wait for the
/// database, open live streams and drags in progress.
///
/// The metrics live in a registry of their own (no process-wide bootstrap), so several servers in
/// one process, as in tests, keep theirs apart.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Counters by route and status, made once each (the registry keeps one per route and
    /// status; each stripe only remembers where it is). Every request looks one up: a stripe per
    /// thread, not one lock for all, or 32 threads queue on it (half a static file's CPU went there).
    private let stripes = (0..<64).map { _ in CounterStripe() }
    let dropDuration: CoreMetrics.Timer
    let databaseWait: CoreMetrics.Timer
    private let liveStreams: CoreMetrics.Gauge
    private let dragSessions: CoreMetrics.Gauge

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        self.factory = factory
        dropDuration = CoreMetrics.Timer(label: "dragboard_drop_duration_seconds", factory: factory)
        databaseWait = CoreMetrics.Timer(label: "dragboard_database_wait_seconds", factory: factory)
        liveStreams = CoreMetrics.Gauge(label: "dragboard_live_streams", factory: factory)
        dragSessions = CoreMetrics.Gauge(label: "dragboard_drag_sessions", factory: factory)
    }

    /// Counts an answered request under its route pattern and status.
    public func record(_ answered: AnsweredRequest) {
        let key = CounterStripe.Key(route: answered.route, status: answered.status)
        // The thread's id (the address of its descriptor), hashed to one of the 64 stripes (its top 6 bits).
        let stripe = stripes[Int((UInt(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 58)]
        let counter = stripe.counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: "dragboard_http_requests_total",
                                              dimensions: [("route", answered.route), ("status", String(answered.status))], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// The exposition, with the gauges read now.
    func exposition(liveStreams streams: Int, dragSessions sessions: Int) -> [UInt8] {
        liveStreams.record(streams)
        dragSessions.record(sessions)
        return registry.emitToBuffer()
    }
}

/// Some threads' share of the request counters.
private final class CounterStripe: Sendable {
    struct Key: Hashable {
        var route: String
        var status: Int
    }
    let counters = Mutex<[Key: CoreMetrics.Counter]>([:])
}

extension CoreMetrics.Timer {
    /// Records a `Duration` (swift-metrics takes nanoseconds).
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
