import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a pool of polling threads calling into a ``Router``, with a bounded
/// pool for slow (``Router/Lane/bulk``) handlers.
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { _ in .text("Hello") }
/// let server = HTTPServer(configuration: .init(port: 8080), router: router, logger: Logger(label: "http"))
/// try server.start()
/// // …
/// server.stop()
/// ```
/// Interactive handlers run on libmicrohttpd's threads and must not block for long; mark slow reads `.bulk`.
public final class HTTPServer: Sendable {
    /// A running daemon and what it needs at shutdown.
    private struct Running: @unchecked Sendable {
        let daemon: OpaquePointer
        let context: Unmanaged<ServerCore>
        let port: Int
        let heartbeat: Heartbeat
        let maintenance: Heartbeat
    }

    private enum Phase: Sendable {
        case idle
        case running(Running)
        case stopped
    }

    private let core: ServerCore
    private let phase = Mutex(Phase.idle)

    /// Creates a server; nothing is bound until ``start()``.
    /// - Parameters:
    ///   - configuration: Address, limits and default headers.
    ///   - router: The routes.
    ///   - logger: Receives one `.info` access-log line per request and libmicrohttpd's own warnings.
    ///     By default a logger labelled `http` of the process's logging system.
    public init(configuration: Configuration = .init(), router: Router, logger: Logger = Logger(label: "http")) {
        core = ServerCore(router: router, configuration: configuration, logger: logger)
    }

    deinit {
        stop()
    }

    /// The bound port once started (useful with port 0), otherwise the configured port.
    public var port: Int {
        phase.withLock { phase in
            if case .running(let running) = phase { return running.port }
            return core.configuration.port
        }
    }

    /// Connections open right now (accepted and not yet closed), for monitoring and load tests.
    public var openConnectionCount: Int { core.connections.openCount }

    /// Connections closed so far because their request head was not complete by the head deadline.
    public var headDeadlineClosures: Int { core.connections.reapedCount }

    /// Binds and starts serving.
    /// - Throws: ``HTTPServerError`` when the host is not numeric, the port is invalid or in use, or the
    ///   server was already started.
    public func start() throws(HTTPServerError) {
        try phase.withLock { phase throws(HTTPServerError) in
            guard case .idle = phase else { throw .alreadyStarted }
            let running = try launch()
            phase = .running(running)
            core.logger.info("Listening on \(core.configuration.host):\(running.port)")
        }
    }

    /// Stops serving: stops accepting, closes every event stream, resumes suspended connections, then stops
    /// libmicrohttpd (which closes the remaining connections). Idempotent.
    public func stop() {
        let running = phase.withLock { phase -> Running? in
            defer { phase = .stopped }
            if case .running(let running) = phase { return running }
            return nil
        }
        guard let running else { return }
        running.heartbeat.stop()
        running.maintenance.stop()
        let listenSocket = MHD_quiesce_daemon(running.daemon)
        let streams = core.streams.beginStopping()
        for stream in streams { stream.close() }
        // Bulk handlers get a moment to finish; the rest are answered 503. Either way their connections are resumed.
        core.bulk.stop(grace: .seconds(2))
        // Give closed streams a moment to send their last bytes; suspended connections must all be resumed
        // and answered before MHD_stop_daemon (it aborts the process otherwise).
        let deadline = ContinuousClock.now + .seconds(2)
        while core.streams.count > 0 || !streams.allSatisfy(\.isQuiet) || core.bulk.suspendedCount > 0,
            ContinuousClock.now < deadline
        {
            usleep(2_000)
        }
        MHD_stop_daemon(running.daemon)
        if listenSocket >= 0 { close(listenSocket) }
        running.context.release()
        core.logger.info("Stopped listening on port \(running.port)")
    }

    /// Starts the daemon and the heartbeat thread; the daemon's context holds a reference to the core until `stop`.
    private func launch() throws(HTTPServerError) -> Running {
        let context = Unmanaged.passRetained(core)
        let daemon: OpaquePointer
        let port: Int
        do {
            (daemon, port) = try launchDaemon(core: core)
        } catch {
            context.release()
            throw error
        }
        core.bulk.start()
        let streams = core.streams
        let connections = core.connections
        let heartbeat = Heartbeat(every: core.configuration.heartbeatInterval) { streams.heartbeat() }
        // Head deadlines, departed stream clients and stream ages are checked a few times per deadline, at least every 250 ms.
        let tick = min(.milliseconds(250), (core.configuration.requestHeadDeadline ?? .seconds(1)) / 4)
        let maintenance = Heartbeat(every: tick) {
            connections.reap()
            streams.closeDeparted()
            streams.closeExpired()
        }
        return Running(daemon: daemon, context: context, port: port, heartbeat: heartbeat, maintenance: maintenance)
    }
}
