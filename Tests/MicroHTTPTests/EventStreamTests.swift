import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

@Suite struct EventStreamTests {
    /// Streams opened by the `/events` route, and how many have been closed.
    final class Hub: Sendable {
        let streams = Mutex<[EventStream]>([])
        let closed = Atomic<Int>(0)

        var count: Int { streams.withLock { $0.count } }
        var latest: EventStream? { streams.withLock { $0.last } }
    }

    private func makeRouter(_ hub: Hub) -> Router {
        var router = Router()
        router.get("/events") { _ in
            Response(body: .eventStream { stream in
                stream.onClose { hub.closed.add(1, ordering: .relaxed) }
                hub.streams.withLock { $0.append(stream) }
                stream.send(event: "hello", data: "welcome")
            })
        }
        return router
    }

    private func openStream(_ server: HTTPServer) throws -> (TestConnection, TestResponse) {
        let connection = try TestConnection(port: server.port)
        try connection.send("GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        return (connection, try connection.readHead())
    }

    @Test func deliversEventsInOrder() throws {
        let hub = Hub()
        try withServer(makeRouter(hub)) { server in
            let (connection, head) = try openStream(server)
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Cache-Control") == "no-store")
            #expect(head.header("Content-Security-Policy") != nil)
            let stream = try #require(hub.latest)
            for index in 1...5 {
                stream.send(id: "\(index)", data: "event \(index)")
            }
            stream.send(event: "multi", data: "line one\nline two")
            let (text, ended) = try connection.readChunkedBody { $0.contains("line two\n\n") }
            #expect(!ended)
            var expected = "event: hello\ndata: welcome\n\n"
            for index in 1...5 { expected += "id: \(index)\ndata: event \(index)\n\n" }
            expected += "event: multi\ndata: line one\ndata: line two\n\n"
            #expect(text == expected)
        }
    }

    @Test func aStreamThatStartsWithNothingSendsItsHeadBeforeItsFirstEvent() throws {
        // Its first event comes after the handler returned, its second while libmicrohttpd sleeps on the
        // stream (written to the socket directly): both arrive after the head, unframed and in order.
        let hub = Hub()
        var router = Router()
        router.get("/quiet") { _ in
            Response(body: .eventStream { stream in hub.streams.withLock { $0.append(stream) } })
        }
        try withServer(router) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /quiet HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            while hub.count == 0 { Thread.sleep(forTimeInterval: 0.001) }   // the handler ran: its stream exists
            let stream = try #require(hub.latest)
            stream.send(event: "first", data: "one")
            let head = try connection.readHead()
            #expect(head.status == 200 && head.header("Transfer-Encoding") == nil, "an unframed body, after the head")
            stream.send(event: "second", data: "two")   // libmicrohttpd has sent the first: straight to the socket
            let (text, ended) = try connection.readChunkedBody { $0.contains("data: two\n\n") }
            #expect(!ended)
            #expect(text == "event: first\ndata: one\n\nevent: second\ndata: two\n\n")
        }
    }

    @Test func anEventLargerThanTheResponsesBlockArrivesWhole() throws {
        // Sent by the handler, before the head: libmicrohttpd takes it through the stream's callback, a
        // block (1 KB) at a time; the next one, many times that, goes straight to the socket.
        let first = String(repeating: "0123456789", count: 1_000)
        let second = String(repeating: "abcdefghij", count: 20_000)
        let hub = Hub()
        var router = Router()
        router.get("/big") { _ in
            Response(body: .eventStream { stream in
                hub.streams.withLock { $0.append(stream) }
                stream.send(event: "first", data: first)
            })
        }
        try withServer(router) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /big HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            #expect(try connection.readHead().status == 200)
            try #require(hub.latest).send(event: "second", data: second)
            let (text, ended) = try connection.readChunkedBody { $0.hasSuffix(second + "\n\n") }
            #expect(!ended)
            #expect(text == "event: first\ndata: \(first)\n\nevent: second\ndata: \(second)\n\n")
        }
    }

    @Test func eventsFromManyThreadsAllArrive() throws {
        let hub = Hub()
        try withServer(makeRouter(hub)) { server in
            let (connection, _) = try openStream(server)
            let stream = try #require(hub.latest)
            let senders = (0..<4).map { thread in
                Thread {
                    for index in 0..<50 { stream.send(data: "t\(thread)-\(index)") }
                }
            }
            senders.forEach { $0.start() }
            let (text, _) = try connection.readChunkedBody { $0.components(separatedBy: "data: t").count - 1 == 200 }
            for thread in 0..<4 {
                let order = text.components(separatedBy: "\n").filter { $0.hasPrefix("data: t\(thread)-") }
                #expect(order == (0..<50).map { "data: t\(thread)-\($0)" })
            }
        }
    }

    @Test func heartbeatsReachTheClient() throws {
        let hub = Hub()
        try withServer(makeRouter(hub), configure: { $0.heartbeatInterval = .milliseconds(20) }) { server in
            let (connection, _) = try openStream(server)
            let (text, _) = try connection.readChunkedBody { $0.components(separatedBy: ": ping\n\n").count > 2 }
            #expect(text.hasPrefix("event: hello\ndata: welcome\n\n"))
            #expect(text.contains(": ping\n\n"))
        }
    }

    @Test func closeEndsTheResponse() throws {
        let hub = Hub()
        try withServer(makeRouter(hub)) { server in
            let (connection, _) = try openStream(server)
            let stream = try #require(hub.latest)
            stream.send(data: "last")
            stream.close()
            #expect(stream.isClosed)
            let (text, ended) = try connection.readChunkedBody { _ in false }
            #expect(ended)
            #expect(text.hasSuffix("data: last\n\n"))
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
        }
    }

    @Test func clientLeavingIsNoticed() throws {
        let hub = Hub()
        try withServer(makeRouter(hub), configure: { $0.heartbeatInterval = .milliseconds(20) }) { server in
            let (connection, _) = try openStream(server)
            let stream = try #require(hub.latest)
            connection.close()
            #expect(waitUntil { hub.closed.load(ordering: .relaxed) == 1 })
            #expect(stream.isClosed)
            stream.send(data: "into the void")  // harmless after the client left
        }
    }

    @Test func stopClosesEveryStreamCleanly() throws {
        let hub = Hub()
        var configuration = HTTPServer.Configuration(port: 0, threadPoolSize: 2)
        configuration.heartbeatInterval = .seconds(60)
        let server = HTTPServer(configuration: configuration, router: makeRouter(hub), logger: .init(label: "t") { _ in LogRecorder().handler() })
        try server.start()
        var connections: [TestConnection] = []
        for _ in 0..<3 {
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = try connection.readHead()
            _ = try connection.readChunkedBody { $0.contains("welcome") }  // reader has drained: connection suspended
            connections.append(connection)
        }
        #expect(hub.count == 3)
        let start = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - start < .seconds(3))
        for connection in connections {
            let rest = try connection.readUntilClosed()  // EOF, not a timeout
            #expect(rest.count < 64)
        }
        #expect(hub.closed.load(ordering: .relaxed) == 3)
        #expect(hub.streams.withLock { $0.allSatisfy(\.isClosed) })
        server.stop()  // idempotent
    }
}
