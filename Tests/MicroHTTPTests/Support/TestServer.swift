import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting
import Synchronization

/// Starts a real server on a free loopback port for the duration of `body`.
func withServer<T>(
    _ router: Router,
    configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    logs: LogRecorder? = nil,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    var configuration = HTTPServer.Configuration(port: 0, threadPoolSize: 2)
    configure(&configuration)
    let recorder = logs ?? LogRecorder()
    let server = HTTPServer(
        configuration: configuration,
        router: router,
        logger: Logger(label: "test.http") { _ in recorder.handler() }
    )
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// Sends one request on a fresh connection (`Connection: close`) and reads the response.
func request(
    _ server: HTTPServer,
    _ method: String = "GET",
    _ target: String,
    headers: [(String, String)] = [],
    body: [UInt8] = [],
    sourceAddress: String? = nil
) throws -> TestResponse {
    let connection = try TestConnection(port: server.port, sourceAddress: sourceAddress)
    var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
    try connection.send(Array((head + "\r\n").utf8) + body)
    return try connection.readResponse(head: method == "HEAD")
}

/// Polls `condition` until it holds or `timeout` passes (for conditions with no event to wait on).
@discardableResult
func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Collects log messages from every logger it makes handlers for.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    func handler() -> Handler { Handler(recorder: self) }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let extra = event.metadata { merged.merge(extra) { $1 } }
            recorder.append(Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}

/// A thread-safe box for values a test shares with handlers.
final class Box<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func get() -> Value { value.withLock { $0 } }
    func update<R: Sendable>(_ change: (inout Value) -> R) -> R { value.withLock { change(&$0) } }
}
