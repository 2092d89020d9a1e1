import Dragboard
import DragboardStore
import Foundation
import Logging
import MicroHTTP

/// A whole server for one board: the board service of a ``BoardKit`` behind the HTTP server,
/// with the browser's static files. For a router of your own, use ``BoardService`` and
/// ``BoardService/addRoutes(to:)`` instead.
public final class DragboardApp: Sendable {
    /// Where things are and how to listen.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// Host names (without port) accepted in `Host` besides `host` and the loopback names; see
        /// ``MicroHTTP/HTTPServer/Configuration/allowedHosts``.
        public var allowedHosts: [String] = []
        /// Where the data lives: a SQLite file, or whatever ``openStore`` understands.
        public var databasePath = "dragboard.sqlite"
        /// Opens ``databasePath``: SQLite by default; `{ try BoardStore(database: $0) }` of the
        /// `DragboardPostgres` module also opens a `postgres://` URL several instances share.
        public var openStore: @Sendable (String) throws -> BoardStore = { try BoardStore(path: $0) }
        /// Where stored images live (see ``BoardService/init(kit:databasePath:openStore:imagesDirectory:templatesDirectory:limits:logger:)``).
        public var imagesDirectory: String?
        public var publicDirectory = "Public"
        public var templatesDirectory = "Templates"
        /// Quotas of stored images and live drag sessions.
        public var limits = BoardService.Limits()
        /// Connections and live-update streams, in total and per address.
        public var connectionLimits = ConnectionLimits()
        /// Reverse proxies whose `X-Forwarded-For`/`-Proto` are believed (numeric addresses).
        public var trustedProxies: [String] = []
        /// Lets any client that sends `Authorization: Bearer <token>` read `GET /metrics`; without
        /// it, only this machine may.
        public var metricsToken: String?
        /// How people sign in. Whether a server with no accounts serves anyone follows ``host``:
        /// only on loopback.
        public var signIn = SignInPolicy()

        public init() {}
    }

    public let service: BoardService
    public let server: HTTPServer

    /// libmicrohttpd threads answering interactive requests (drops, session requests).
    static let threadPoolSize = 32

    /// Opens the database (seeding a new one with the kit's seed) and prepares the server.
    /// - Throws: ``DragboardError/unavailable(_:)`` when bound to an address other than loopback, or
    ///   behind a reverse proxy (which brings everyone it serves), while no account exists: everyone
    ///   who reaches it could change every board.
    public init(kit: BoardKit, options: Options, logger: Logger) async throws {
        var signIn = options.signIn
        // Behind a proxy every request comes from loopback, but from anyone the proxy serves.
        signIn.openWithoutAccounts = Self.isLoopback(options.host) && options.trustedProxies.isEmpty
        let staticFiles = try StaticFiles(directory: options.publicDirectory)
        service = try await BoardService(kit: kit, databasePath: options.databasePath, openStore: options.openStore, imagesDirectory: options.imagesDirectory,
                                         templatesDirectory: options.templatesDirectory, staticFiles: "/static/" + staticFiles.version,
                                         limits: options.limits, signIn: signIn, logger: logger)
        if !signIn.openWithoutAccounts, try !service.store.hasAccounts() {
            throw DragboardError.unavailable("""
                no account exists, and \(options.trustedProxies.isEmpty ? "\(options.host) is reachable from other machines" : "a reverse proxy brings other machines' requests"): anyone could change every board. \
                Add the first account, then start again: echo 'a password' | dragboard users add NAME --admin
                """)
        }
        logger.info("Board store: \(service.store.databaseDescription)")
        var router = Router()
        router.mount(staticFiles, at: "/static")
        service.addRoutes(to: &router)
        service.addOperationsRoutes(to: &router, metricsToken: options.metricsToken)
        var configuration = HTTPServer.Configuration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.allowedHosts = options.allowedHosts
        options.connectionLimits.apply(to: &configuration)
        configuration.trustedProxies = options.trustedProxies
        configuration.onResponse = { [metrics = service.metrics] in metrics.record($0) }
        configuration.errorPage = { error, request in BoardService.errorPage(error, back: BoardService.referringPage(request)) }
        // A drop holds its libmicrohttpd thread until its batch is on disk (group commit), and every
        // other connection of that thread waits meanwhile: with 4 threads at most 4 drops could share
        // a commit. Waiting threads cost no CPU, so there are enough for every client to be in flight.
        configuration.threadPoolSize = Self.threadPoolSize
        server = HTTPServer(configuration: configuration, router: router, logger: logger)
    }

    /// Starts listening; ``port`` is then the bound port.
    public func start() throws {
        try server.start()
    }

    public var port: Int { server.port }

    /// Whether `host` is reachable from this machine only.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    /// Ends every live stream, then stops the server.
    public func stop() {
        server.stop()
    }
}
