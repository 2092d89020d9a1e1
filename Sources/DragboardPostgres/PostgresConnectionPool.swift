import Dispatch
import DragboardStore
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Connections to one PostgreSQL database, opened on demand up to a limit and reused.
///
/// Synchronous on purpose: PostgresNIO's own `PostgresClient` lends connections only inside an
/// `async` closure, and the store's callers are libmicrohttpd threads that block; bridging each
/// transaction through a task would hold a thread of Swift's small cooperative pool while
/// another waits for it (two cores give two threads), which can deadlock.
final class PostgresConnectionPool: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let url: PostgresURL
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let capacity: DispatchSemaphore
    private let idle = Mutex<[PooledConnection]>([])
    private let nextID = Atomic<Int>(1)
    /// How many connections this pool opens at most (each is a PostgreSQL backend process).
    let maximumConnections: Int
    /// How long a thread waits for any one answer of PostgreSQL before giving up on the connection.
    let answerDeadline: TimeAmount

    /// - Throws: ``StoreError/invalid(_:)`` when the URL's TLS settings cannot be set up (a root
    ///   certificate file that does not read, say).
    init(url: PostgresURL, maximumConnections: Int, answerDeadline: Duration = .seconds(4), logger: Logger) throws {
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password,
            database: url.database, tls: try Self.tls(url.tls))
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        self.url = url
        self.eventLoopGroup = PostgresConnection.defaultEventLoopGroup
        self.logger = logger
        self.maximumConnections = maximumConnections
        let (seconds, attoseconds) = answerDeadline.components
        self.answerDeadline = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self.capacity = DispatchSemaphore(value: maximumConnections)
    }

    /// What PostgresNIO is told of `mode`: a TLS context that checks the server (`verify-full`), or
    /// one that only encrypts (`require`); either way the connection fails rather than going on in clear.
    private static func tls(_ mode: PostgresURL.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return .disable
        case .require:
            tls.certificateVerification = .none
        case .verifyFull(let rootCertificate):
            tls.certificateVerification = .fullVerification
            if let rootCertificate { tls.trustRoots = .file(rootCertificate) }
        }
        do {
            return .require(try NIOSSLContext(configuration: tls))
        } catch {
            throw StoreError.invalid("PostgreSQL's TLS cannot be set up (\(String(reflecting: error).prefix(200)))")
        }
    }

    /// Lends a connection to `body`, waiting while all are lent. A connection that broke, gave no
    /// answer in time, or was left inside a transaction by a failure is closed rather than lent again.
    func withConnection<T>(_ body: (PooledConnection) throws -> T) throws -> T {
        capacity.wait()
        defer { capacity.signal() }
        let connection = try keptConnection() ?? PooledConnection(connect(), answerDeadline: answerDeadline)
        do {
            let result = try body(connection)
            release(connection, reusable: true)
            return result
        } catch {
            release(connection, reusable: false)
            throw error
        }
    }

    /// The newest kept connection still open. One the server ended since (a restart, a failover)
    /// is dropped: PostgresNIO never answers a query written to a closed channel, so it must not
    /// be lent.
    private func keptConnection() -> PooledConnection? {
        while let kept = idle.withLock({ $0.popLast() }) {
            if !kept.connection.isClosed { return kept }
        }
        return nil
    }

    /// A connection of its own, outside the pool (a `LISTEN`er holds one for its lifetime).
    /// - Throws: ``StoreError/unavailable(_:)`` when the server cannot be reached or refuses us.
    func connect() throws -> PostgresConnection {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let connecting = PostgresConnection.connect(on: eventLoopGroup.any(), configuration: configuration, id: id, logger: logger)
        do {
            return try connecting.wait(atMost: answerDeadline)
        } catch is PostgresDeadlineExceeded {
            connecting.whenSuccess { late in late.close().whenComplete { _ in withExtendedLifetime(late) {} } }
            logger.warning("PostgreSQL at \(url.host):\(url.port) did not complete a connection in time")
            throw StoreError.unavailable(PostgresEngine.unreachable)
        } catch {
            logger.warning("PostgreSQL at \(url.host):\(url.port) cannot be reached: \(String(reflecting: error).prefix(300))")
            throw StoreError.unavailable(PostgresEngine.unreachable)
        }
    }

    private func release(_ pooled: PooledConnection, reusable: Bool) {
        if reusable, !pooled.unanswered, !pooled.connection.isClosed {
            idle.withLock { $0.append(pooled) }
        } else {
            // PostgresNIO traps if a connection is freed before it closed: hold it until then.
            let connection = pooled.connection
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    /// Closes the idle connections (lent ones close when given back after this).
    func close() {
        for pooled in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) {
            _ = try? pooled.connection.close().wait(atMost: answerDeadline)
        }
    }
}

/// A pooled connection and the statements prepared on it (PostgreSQL parses and plans those once
/// per connection instead of once per call). Used by one thread at a time: the one the pool lent
/// it to.
final class PooledConnection: @unchecked Sendable {
    let connection: PostgresConnection
    let answerDeadline: TimeAmount
    /// By the store's SQL (and, for one prepared with its arguments' types, those types); nil where
    /// preparing failed (the statement then runs unprepared).
    var prepared: [String: PreparedQuery?] = [:]
    /// An answer did not come in time: what the connection is doing is unknown, so it is closed
    /// (which also rolls back its transaction) instead of being used again.
    private(set) var unanswered = false

    init(_ connection: PostgresConnection, answerDeadline: TimeAmount) {
        self.connection = connection
        self.answerDeadline = answerDeadline
    }

    /// PostgreSQL's answer to `request`, waited for at most ``answerDeadline``.
    ///
    /// `request` runs on the connection's event loop, and the answer comes straight back to the
    /// waiting thread: one hand-off each way. (Made on this thread, the query, a deadline timer, its
    /// cancelling and the wait itself each handed a task to the loop, and woke it.)
    /// - Throws: ``StoreError/unavailable(_:)`` when the deadline passes.
    /// Once a deadline has passed, every later request fails at once: the connection is given up.
    /// - Throws: ``PostgresConnectionClosed`` as soon as the connection is seen closed while it
    ///   waits (the server ended it: PostgresNIO would never answer), not at the deadline.
    func answer<Value: Sendable>(_ request: @escaping @Sendable () -> EventLoopFuture<Value>) throws -> Value {
        guard !unanswered else { throw noAnswer }
        let answer = PendingAnswer<Value>()
        connection.eventLoop.execute { request().whenComplete(answer.arrive) }
        var waited = TimeAmount.zero
        while true {
            // In slices: a server that ended this connection between its lending and this request
            // (a restart, `pg_terminate_backend`) is noticed within a slice, and the caller may
            // try another connection instead of waiting out the deadline.
            let slice = min(Self.closedCheckInterval, answerDeadline - waited)
            if let result = answer.wait(slice) { return try result.get() }
            waited = waited + slice
            if connection.isClosed { throw PostgresConnectionClosed() }
            guard waited < answerDeadline else {
                unanswered = true
                throw noAnswer
            }
        }
    }

    /// How often a wait for an answer looks whether the connection closed meanwhile.
    static let closedCheckInterval = TimeAmount.milliseconds(250)

    private var noAnswer: StoreError {
        let milliseconds = answerDeadline.nanoseconds / 1_000_000
        let deadline = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return .unavailable("PostgreSQL gave no answer within \(deadline)")
    }
}
