import ArgumentParser
import Dispatch
import Dragboard
import DragboardHTTP
import DragboardPostgres
import DragboardStore
import Foundation
import Logging
import Showcase
import Synchronization

@main
struct DragboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dragboard",
        abstract: "Serves the Dragboard demo board: lists you rearrange with native drag and drop.",
        subcommands: [ServeCommand.self, UsersCommand.self, ImportCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    /// Holds back SIGINT and SIGTERM before anything else runs (see ``TerminationSignals``), then
    /// parses the arguments and serves until one of them arrives (or runs another command).
    static func main() {
        let termination = TerminationSignals()
        do {
            var command = try parseAsRoot()
            if let serve = command as? ServeCommand {
                try serve.serve(until: termination)
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// `dragboard serve` (the default): the server.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serves the boards (the default command)."
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks any free port.") var port = 8080
    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A host name (without port) browsers may use to reach this server; repeatable.",
            discussion: """
                Requests whose Host header is not the --host address, localhost, 127.0.0.1, [::1] or one of \
                these names get 421, which stops DNS-rebinding pages. With --host 0.0.0.0 or :: the \
                machine's own names cannot be guessed, so only loopback names and the names given here \
                are accepted.
                """
        )
    ) var allowedHosts: [String] = []
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The numeric address of a reverse proxy in front of this server; repeatable.",
            discussion: """
                From that address only, X-Forwarded-For names the client (its per-address limits apply to it) and \
                X-Forwarded-Proto: https marks cookies Secure. Add the public host name with --allowed-host.
                """
        )
    ) var trustedProxies: [String] = []
    @Option(help: "Serves GET /metrics to any client that sends 'Authorization: Bearer <token>' (without it, to this machine only).")
    var metricsToken: String?
    @OptionGroup var database: DatabaseOption
    @Option(help: "The folder of stored images (instances sharing a database share it too); by default <database>-images, or dragboard-images with PostgreSQL.")
    var images: String?
    @Option(name: .customLong("public"), help: "The folder of static files.") var publicDirectory = "Public"
    @Option(help: "The folder of Mustache templates.") var templates = "Templates"
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: Logger.Level = .info
    @Option(help: "The most images the image well keeps.") var maxImages = BoardService.Limits().maximumImages
    @Option(help: "The most megabytes of images the image well keeps.") var maxImageStorage = BoardService.Limits().maximumImageBytes / 1024 / 1024
    @Option(help: "The most connections at once (lowered to what the open-file limit allows).") var maxConnections = DragboardApp.ConnectionLimits().connections
    @Option(help: "The most connections at once from one address.") var connectionsPerAddress = DragboardApp.ConnectionLimits().connectionsPerAddress
    @Option(help: "The most live-update streams (open board tabs) at once.") var maxEventStreams = DragboardApp.ConnectionLimits().eventStreams
    @Option(help: "The most live-update streams at once from one address.") var eventStreamsPerAddress = DragboardApp.ConnectionLimits().eventStreamsPerAddress
    @Option(help: "The most live-update streams at once of one signed-in person.") var eventStreamsPerUser = BoardService.Limits().eventStreamsPerUser
    @Option(help: "Live-update stream slots kept for addresses with fewer than 4 open, so a newcomer is served when others fill their shares.")
    var eventStreamReserve = DragboardApp.ConnectionLimits().eventStreamReserve
    @Option(help: "The most drags in progress at once.") var maxDrags = BoardService.Limits().sessions
    @Option(help: "The most drags in progress at once from one address.") var dragsPerAddress = BoardService.Limits().sessionsPerAddress
    @Option(help: "The most drags in progress at once of one signed-in person.") var dragsPerUser = BoardService.Limits().sessionsPerUser
    @Option(help: "Drag slots kept for addresses with fewer than 16 drags in progress.") var dragReserve = BoardService.Limits().sessionReserve
    @Option(help: "The most megabytes of files one drop from outside may upload while its drag is in progress.")
    var pendingUploadStoragePerDrag = BoardService.Limits().pendingUploadBytesPerDrag / 1024 / 1024
    @Option(help: "The most megabytes of files the drags in progress from one address may hold.")
    var pendingUploadStoragePerAddress = BoardService.Limits().pendingUploadBytesPerAddress / 1024 / 1024
    @Option(help: "The most megabytes of files the drags in progress may hold, in total.")
    var maxPendingUploadStorage = BoardService.Limits().pendingUploadBytes / 1024 / 1024
    @Option(help: "How many rows of each list a page renders at first; the rest load as it scrolls.") var rowWindow = BoardKit.defaultRowWindow
    @Option(help: "Days a sign-in lasts without being used.") var sessionDays = SignInPolicy().sessionDays
    @Flag(help: "Marks the sign-in cookie Secure: for a server reached over HTTPS (behind a proxy that speaks it).") var secureCookies = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be within 0...65535") }
        for proxy in trustedProxies where proxy.isEmpty || !proxy.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) {
            throw ValidationError("--trusted-proxy takes a numeric IPv4 or IPv6 address, not \(proxy)")
        }
        guard (1...10_000).contains(rowWindow) else { throw ValidationError("--row-window must be within 1...10000") }
        guard (1...3650).contains(sessionDays) else { throw ValidationError("--session-days must be within 1...3650") }
        guard maxImages >= 0, (0...1_000_000).contains(maxImageStorage) else { throw ValidationError("--max-images and --max-image-storage must not be negative") }
        for (name, value) in [("--max-connections", maxConnections), ("--connections-per-address", connectionsPerAddress), ("--max-event-streams", maxEventStreams),
                              ("--event-streams-per-address", eventStreamsPerAddress), ("--event-streams-per-user", eventStreamsPerUser),
                              ("--max-drags", maxDrags), ("--drags-per-address", dragsPerAddress), ("--drags-per-user", dragsPerUser)] {
            guard (1...1_000_000).contains(value) else { throw ValidationError("\(name) must be within 1...1000000") }
        }
        for (name, value) in [("--pending-upload-storage-per-drag", pendingUploadStoragePerDrag), ("--pending-upload-storage-per-address", pendingUploadStoragePerAddress),
                              ("--max-pending-upload-storage", maxPendingUploadStorage)] {
            guard (0...1_000_000).contains(value) else { throw ValidationError("\(name) must be within 0...1000000 (megabytes)") }
        }
        guard (0..<maxEventStreams).contains(eventStreamReserve) else { throw ValidationError("--event-stream-reserve must be at least 0 and less than --max-event-streams") }
        guard (0..<maxDrags).contains(dragReserve) else { throw ValidationError("--drag-reserve must be at least 0 and less than --max-drags") }
    }

    func serve(until termination: borrowing TerminationSignals) throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "dragboard")
        var options = DragboardApp.Options()
        options.host = host
        options.port = port
        options.allowedHosts = allowedHosts
        options.trustedProxies = trustedProxies
        options.metricsToken = metricsToken
        options.databasePath = database.path
        options.openStore = { try BoardStore(database: $0) }
        options.imagesDirectory = images
        options.publicDirectory = publicDirectory
        options.templatesDirectory = templates
        options.limits.maximumImages = maxImages
        options.limits.maximumImageBytes = maxImageStorage * 1024 * 1024
        options.limits.sessions = maxDrags
        options.limits.pendingUploadBytesPerDrag = pendingUploadStoragePerDrag * 1024 * 1024
        options.limits.pendingUploadBytesPerAddress = pendingUploadStoragePerAddress * 1024 * 1024
        options.limits.pendingUploadBytes = maxPendingUploadStorage * 1024 * 1024
        options.limits.sessionsPerAddress = dragsPerAddress
        options.limits.sessionsPerUser = dragsPerUser
        options.limits.sessionReserve = dragReserve
        options.limits.eventStreamsPerUser = eventStreamsPerUser
        options.connectionLimits.connections = maxConnections
        options.connectionLimits.connectionsPerAddress = connectionsPerAddress
        options.connectionLimits.eventStreams = maxEventStreams
        options.connectionLimits.eventStreamsPerAddress = eventStreamsPerAddress
        options.connectionLimits.eventStreamReserve = eventStreamReserve
        options.signIn.sessionDays = sessionDays
        options.signIn.secureCookies = secureCookies
        var kit = Showcase.kit
        kit.rowWindow = rowWindow
        let app = try Self.waiting { [kit, options] in try await DragboardApp(kit: kit, options: options, logger: logger) }
        try app.start()
        // Exactly one line on standard output, written unbuffered so a supervisor sees it at once: it
        // may stop the server as soon as it reads it, and the signal then waits for `wait()`.
        FileHandle.standardOutput.write(Data("Listening on http://\(host):\(app.port)\n".utf8))
        let signal = termination.wait()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        app.stop()
    }

    /// Runs async work from the main thread, which stays out of the concurrency pool: it is the
    /// thread that waits for the termination signal.
    private static func waiting<Value: Sendable>(for work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await work()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
