import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Event streams have caps of their own and a maximum age, so idle streams cannot take every connection.
@Suite struct StreamLimitTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.get("/events") { _ in
            Response(body: .eventStream { stream in stream.send(event: "hello", data: "welcome") })
        }
        router.get("/ping") { _ in .text("pong") }
        return router
    }

    private func openStream(_ server: HTTPServer, from address: String) throws -> (TestConnection, TestResponse) {
        let connection = try TestConnection(port: server.port, sourceAddress: address)
        try connection.send("GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        return (connection, try connection.readHead())
    }

    @Test func streamsAreCappedPerAddressAndInTotal() throws {
        try withServer(makeRouter(), configure: {
            $0.maxEventStreamsPerAddress = 2
            $0.maxEventStreams = 3
            $0.eventStreamReserve = 0
        }) { (server: HTTPServer) throws in
            var open: [TestConnection] = []
            for _ in 0..<2 {
                let (connection, head) = try openStream(server, from: "127.0.0.1")
                #expect(head.status == 200)
                open.append(connection)
            }
            let (_, perAddress) = try openStream(server, from: "127.0.0.1")
            let refusedHere = try #require(try? TestConnection(port: server.port, sourceAddress: "127.0.0.1"))
            try refusedHere.send("GET /events HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let body = try refusedHere.readResponse()
            #expect(perAddress.status == 429)
            #expect(body.status == 429)
            #expect(body.errorCode == "too_many_streams_from_address")
            #expect(body.text.contains("maximum of 2 live-update streams"))
            #expect(body.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)

            let (third, fromElsewhere) = try openStream(server, from: "127.0.0.2")
            #expect(fromElsewhere.status == 200)
            open.append(third)
            let total = try TestConnection(port: server.port, sourceAddress: "127.0.0.3")
            try total.send("GET /events HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let refused = try total.readResponse()
            #expect(refused.status == 503)
            #expect(refused.errorCode == "too_many_streams")
            #expect(refused.header("Retry-After") != nil)
            // Ordinary requests are unaffected by the stream cap.
            #expect(try request(server, "GET", "/ping", sourceAddress: "127.0.0.3").status == 200)

            // A closed stream frees its place.
            open.removeFirst().close()
            #expect(waitUntil {
                guard let (connection, head) = try? openStream(server, from: "127.0.0.1") else { return false }
                if head.status == 200 { open.append(connection) }
                return head.status == 200
            })
        }
    }

    @Test func streamsEndAtTheirMaximumAge() throws {
        try withServer(makeRouter(), configure: { $0.eventStreamMaxAge = .milliseconds(500) }) { (server: HTTPServer) throws in
            let (connection, head) = try openStream(server, from: "127.0.0.1")
            #expect(head.status == 200)
            // The server ends the response (terminating chunk); EventSource would reconnect by itself.
            let (text, ended) = try connection.readChunkedBody { _ in false }
            #expect(text.contains("welcome"))
            #expect(ended)
        }
    }

    @Test func aStreamWhoseClientLeftFreesItsPlaceAtOnceNotAtTheNextHeartbeat() throws {
        try withServer(makeRouter(), configure: {
            $0.maxEventStreamsPerAddress = 2
            $0.heartbeatInterval = .seconds(3600)
        }) { (server: HTTPServer) throws in
            // A person reloading a page ten times: each load opens a stream and the old page's closes.
            var current: TestConnection?
            for load in 0..<10 {
                var head: TestResponse?
                #expect(waitUntil(timeout: .seconds(5)) {
                    guard let (connection, answer) = try? openStream(server, from: "127.0.0.1") else { return false }
                    if answer.status == 200 { current?.close(); current = connection; head = answer } else { connection.close() }
                    return answer.status == 200
                }, "load \(load)")
                #expect(head?.status == 200)
            }
            // Both places free again once the last page goes too.
            current?.close()
            var both: [TestConnection] = []
            #expect(waitUntil(timeout: .seconds(5)) {
                guard let (connection, answer) = try? openStream(server, from: "127.0.0.1") else { return false }
                if answer.status == 200 { both.append(connection) } else { connection.close() }
                return both.count == 2
            })
        }
    }

    @Test func theReserveKeepsAStreamForANewcomerWhenAddressesFillTheirShares() throws {
        try withServer(makeRouter(), configure: {
            $0.maxEventStreams = 16
            $0.eventStreamReserve = 8
            $0.maxEventStreamsPerAddress = 8
        }) { (server: HTTPServer) throws in
            var open: [TestConnection] = []
            for _ in 0..<8 {
                let (connection, head) = try openStream(server, from: "127.0.0.2")
                #expect(head.status == 200)
                open.append(connection)
            }
            // Only the reserve is left: a second address within its share gets 4, then words and a time.
            for _ in 0..<4 {
                let (connection, head) = try openStream(server, from: "127.0.0.3")
                #expect(head.status == 200)
                open.append(connection)
            }
            let refused = try TestConnection(port: server.port, sourceAddress: "127.0.0.3")
            try refused.send("GET /events HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let answer = try refused.readResponse()
            #expect(answer.status == 429)
            #expect(answer.errorCode == "streams_reserved")
            #expect(answer.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)
            // A newcomer still gets its stream.
            let (newcomer, head) = try openStream(server, from: "127.0.0.4")
            #expect(head.status == 200)
            open.append(newcomer)
        }
    }
}
