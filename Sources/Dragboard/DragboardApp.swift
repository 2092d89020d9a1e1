import Foundation
import Logging
import MicroHTTP

/// The whole app: the board service behind the HTTP server, with static files.
public final class DragboardApp: Sendable {
    /// Where things are and how to listen.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// Host names (without port) accepted in `Host` besides `host` and the loopback names; see
        /// ``MicroHTTP/HTTPServer/Configuration/allowedHosts``.
        public var allowedHosts: [String] = []
        public var databasePath = "dragboard.sqlite"
        public var publicDirectory = "Public"
        public var templatesDirectory = "Templates"
        /// Quotas of stored images and live drag sessions.
        public var limits = BoardService.Limits()

        public init() {}
    }

    public let service: BoardService
    public let server: HTTPServer

    public init(options: Options, logger: Logger) async throws {
        let store = try BoardStore(path: options.databasePath)
        try DemoBoard.seed(store)
        let renderer = try await BoardRenderer(templatesDirectory: options.templatesDirectory)
        let images = URL(fileURLWithPath: options.databasePath + "-images", isDirectory: true)
        service = try BoardService(store: store, renderer: renderer, imagesDirectory: images, limits: options.limits, logger: logger)
        var router = Router()
        router.mount(try StaticFiles(directory: options.publicDirectory), at: "/static")
        service.addRoutes(to: &router)
        var configuration = HTTPServer.Configuration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.allowedHosts = options.allowedHosts
        server = HTTPServer(configuration: configuration, router: router, logger: logger)
    }

    /// Starts listening; ``port`` is then the bound port.
    public func start() throws {
        try server.start()
    }

    public var port: Int { server.port }

    /// Ends every live stream, then stops the server.
    public func stop() {
        server.stop()
    }
}
