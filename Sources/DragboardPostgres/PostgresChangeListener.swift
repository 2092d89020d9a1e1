import Dispatch
import DragboardStore
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Holds one connection that `LISTEN`s for the changes other instances commit, and hands each
/// to `deliver` in the order PostgreSQL committed them.
///
/// When the connection breaks it reconnects (every second until it succeeds), then delivers the
/// current version of every board: a notice sent while nobody listened is not kept by
/// PostgreSQL, and this way viewers who missed one still learn they are behind. It also hears of
/// changes to who may do what, for `access` (which knows, by its epoch, when listening stopped).
final class PostgresChangeListener: Sendable {
    private let pool: PostgresConnectionPool
    private let instance: String
    private let access: AccessWatch?
    private let logger: Logger
    private let deliver: @Sendable (ChangeNotice) -> Void
    private struct State {
        var connection: PostgresConnection?
        var stopped = false
    }
    private let state = Mutex(State())

    init(pool: PostgresConnectionPool, instance: String, access: AccessWatch?, logger: Logger,
         deliver: @escaping @Sendable (ChangeNotice) -> Void) {
        self.pool = pool
        self.instance = instance
        self.access = access
        self.logger = logger
        self.deliver = deliver
    }

    /// Connects and listens; throws if the first connection fails.
    func start() throws {
        try listen(catchingUp: false)
    }

    func stop() {
        let connection = state.withLock { state in
            state.stopped = true
            return state.connection.take()
        }
        access?.setListening(false)
        _ = try? connection?.close().wait(atMost: pool.answerDeadline)
    }

    private func listen(catchingUp: Bool) throws {
        let connection = try pool.connect()
        let instance = self.instance
        let deliver = self.deliver
        connection.addListener(channel: ChangeNotice.channel) { _, message in
            guard let notice = ChangeNotice(payload: message.payload), notice.instance != instance else { return }
            deliver(notice)
        }
        let access = self.access
        connection.addListener(channel: PostgresEngine.accessChannel) { _, _ in access?.changed() }
        do {
            _ = try connection.query("LISTEN \(unescaped: ChangeNotice.channel)", logger: logger).wait(atMost: pool.answerDeadline)
            _ = try connection.query("LISTEN \(unescaped: PostgresEngine.accessChannel)", logger: logger).wait(atMost: pool.answerDeadline)
        } catch {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
            throw error
        }
        let keep = state.withLock { state in
            guard !state.stopped else { return false }
            state.connection = connection
            return true
        }
        guard keep else {
            _ = try? connection.close().wait(atMost: pool.answerDeadline)
            return
        }
        // Before the close is watched: a connection that ends at once is then heard to end after it began.
        access?.setListening(true)
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionEnded(connection) }
        if catchingUp { try catchUp() }
    }

    private func connectionEnded(_ connection: PostgresConnection) {
        let retry = state.withLock { state in
            guard state.connection === connection, !state.stopped else { return false }
            state.connection = nil
            return true
        }
        guard retry else { return }
        access?.setListening(false)
        logger.warning("Lost the PostgreSQL connection that hears other instances' changes; reconnecting")
        reconnect()
    }

    private func reconnect() {
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !self.state.withLock({ $0.stopped }) else { return }
            do {
                try self.listen(catchingUp: true)
            } catch {
                self.logger.warning("Still no PostgreSQL connection for other instances' changes: \(error)")
                self.reconnect()
            }
        }
    }

    /// Every board's version as it is now, as if each had just been announced by someone else.
    private func catchUp() throws {
        let boards = try pool.withConnection { connection in
            try connection.answer { [logger] in connection.connection.query("SELECT id, version FROM board", logger: logger) }.rows.map {
                try $0.decode((String, Int).self)
            }
        }
        for (board, version) in boards { deliver(ChangeNotice(instance: "", board: board, version: version)) }
    }
}
