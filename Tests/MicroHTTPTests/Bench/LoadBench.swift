import Dispatch
import Foundation
import Glibc
import Logging
import MicroHTTP
import Synchronization
import Testing

/// Measurements behind the server's defaults, not assertions: run them on purpose with
/// `MICROHTTP_BENCH=1 swift test --filter LoadBench` (a few minutes; they print their figures).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["MICROHTTP_BENCH"] == "1"))
struct LoadBench {
    private static func server(_ router: Router, _ configure: (inout HTTPServer.Configuration) -> Void) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(port: 0)
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        try server.start()
        return server
    }

    /// One `GET` on a fresh connection; its latency in milliseconds, or `nil` if it failed.
    private static func timedGet(_ port: Int, _ path: String, timeout: Double = 5) -> Double? {
        let start = ContinuousClock.now
        guard let connection = try? TestConnection(port: port, timeout: timeout),
            (try? connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil,
            let response = try? connection.readResponse(), response.status == 200
        else { return nil }
        return (ContinuousClock.now - start).milliseconds
    }

    private static func summary(_ samples: [Double], failed: Int) -> String {
        guard !samples.isEmpty else { return "no answers, \(failed) failed" }
        let sorted = samples.sorted()
        func at(_ q: Double) -> String { String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) }
        return "n=\(sorted.count) p50=\(at(0.5)) ms p99=\(at(0.99)) ms max=\(at(1)) ms, \(failed) failed"
    }

    /// Uploads cut off mid-body: how many does the server notice at once (sink aborted within 3 s),
    /// under each event loop? A miss waits for the 30 s connection timeout.
    @Test(arguments: [HTTPServer.EventLoop.epoll, .poll])
    func missedClosesOfCutOffUploads(loop: HTTPServer.EventLoop) throws {
        final class Aborts: Sendable { let count = Atomic<Int>(0) }
        struct Sink: RequestBodySink {
            let aborts: Aborts
            func write(_ chunk: UnsafeRawBufferPointer) throws {}
            func finish() throws -> Response { .text("done") }
            func abort() { aborts.count.add(1, ordering: .relaxed) }
        }
        let aborts = Aborts()
        var router = Router()
        router.post("/upload", bodyLimit: 8 << 20, streamingBody: { _ in Sink(aborts: aborts) })
        let server = try Self.server(router) { $0.eventLoop = loop; $0.perIPConnectionLimit = 0 }
        defer { server.stop() }
        let uploads = 80
        let half = [UInt8](repeating: 1, count: 2 << 20)
        DispatchQueue.concurrentPerform(iterations: uploads) { _ in
            guard let connection = try? TestConnection(port: server.port, timeout: 10) else { return }
            try? connection.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(4 << 20)\r\n\r\n")
            try? connection.send(half)
            connection.close()
        }
        _ = waitUntil(timeout: .seconds(3)) { aborts.count.load(ordering: .relaxed) == uploads }
        let noticed = aborts.count.load(ordering: .relaxed)
        print("BENCH missed-closes loop=\(loop): \(uploads - noticed) of \(uploads) cut-off uploads not noticed within 3 s")
    }

    /// 2,000 half-open requests from 40 loopback addresses, kept up (reopened when the server closes them)
    /// for 25 s; a legitimate client measures latency before, during and after; then how long until the
    /// server holds no more flood connections and answers at baseline.
    @Test(arguments: [HTTPServer.EventLoop.poll, .epoll])
    func slowlorisFromFortyAddresses(loop: HTTPServer.EventLoop) throws {
        var router = Router()
        router.get("/n/:n") { request in .text("n=\(request.pathParameters["n"] ?? "")") }
        let server = try Self.server(router) { $0.eventLoop = loop }
        defer { server.stop() }
        let port = server.port

        func measure(for duration: Duration) -> (samples: [Double], failed: Int) {
            var samples: [Double] = []
            var failed = 0
            let end = ContinuousClock.now + duration
            while ContinuousClock.now < end {
                if let ms = Self.timedGet(port, "/n/1") { samples.append(ms) } else { failed += 1 }
                usleep(20_000)
            }
            return (samples, failed)
        }
        let baseline = measure(for: .seconds(3))
        print("BENCH slowloris loop=\(loop) baseline: \(Self.summary(baseline.samples, failed: baseline.failed))")

        let attacking = Atomic<Bool>(true)
        let attackerDone = DispatchSemaphore(value: 0)
        let held = Atomic<Int>(0)
        Thread {
            var slots = [TestConnection?](repeating: nil, count: 2_000)
            func connect(_ index: Int) -> TestConnection? {
                let address = "127.0.0.\(2 + index % 40)"
                guard let connection = try? TestConnection(port: port, sourceAddress: address, timeout: 1) else { return nil }
                try? connection.send("GET /n/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                return connection
            }
            while attacking.load(ordering: .relaxed) {
                var holding = 0
                for index in slots.indices {
                    if let connection = slots[index] {
                        var probe = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
                        if poll(&probe, 1, 0) > 0 { connection.close(); slots[index] = nil }
                    }
                    if slots[index] == nil, attacking.load(ordering: .relaxed) { slots[index] = connect(index) }
                    if slots[index] != nil { holding += 1 }
                }
                held.store(holding, ordering: .relaxed)
                usleep(500_000)
            }
            for connection in slots { connection?.close() }
            attackerDone.signal()
        }.start()
        usleep(2_000_000)  // let the flood build up
        let during = measure(for: .seconds(25))
        print("BENCH slowloris loop=\(loop) during attack (attacker holds ~\(held.load(ordering: .relaxed)) sockets, server has \(server.openConnectionCount) open): \(Self.summary(during.samples, failed: during.failed))")

        attacking.store(false, ordering: .relaxed)
        attackerDone.wait()
        let left = ContinuousClock.now
        _ = waitUntil(timeout: .seconds(60)) { server.openConnectionCount == 0 }
        let drained = ContinuousClock.now - left
        let after = measure(for: .seconds(3))
        print("BENCH slowloris loop=\(loop) attacker left: server back to 0 flood connections after \(String(format: "%.2f", drained.milliseconds / 1000)) s (head-deadline closures: \(server.headDeadlineClosures)); then \(Self.summary(after.samples, failed: after.failed))")
    }

    /// 8 clients looping on a slow read (~40 ms of CPU, standing in for a 10,000-row page render) while a
    /// client measures a quick request, with the slow route on the interactive lane vs the bulk lane.
    @Test(arguments: [Router.Lane.interactive, .bulk])
    func slowReadsVersusQuickRequests(lane: Router.Lane) throws {
        var router = Router()
        router.get("/render", lane: lane) { _ in
            var x: UInt64 = 1
            let end = ContinuousClock.now + .milliseconds(40)
            while ContinuousClock.now < end { x = x &* 6364136223846793005 &+ 1 }
            return .text("\(x)")
        }
        router.get("/drop") { _ in .text("ok") }
        let server = try Self.server(router) { _ in }
        defer { server.stop() }
        let port = server.port
        let running = Atomic<Bool>(true)
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                while running.load(ordering: .relaxed) { _ = Self.timedGet(port, "/render", timeout: 10) }
                group.leave()
            }.start()
        }
        usleep(500_000)
        var samples: [Double] = []
        var failed = 0
        let end = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < end {
            if let ms = Self.timedGet(port, "/drop", timeout: 10) { samples.append(ms) } else { failed += 1 }
            usleep(20_000)
        }
        running.store(false, ordering: .relaxed)
        group.wait()
        print("BENCH lanes slow route on \(lane): quick request \(Self.summary(samples, failed: failed))")
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
