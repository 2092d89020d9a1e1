import Foundation
import Glibc
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Connections that never finish their request head are closed at an absolute deadline, and a flood of
/// them from many addresses cannot take every connection slot.
@Suite struct SlowClientTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.get("/n/:n") { request in .text("n=\(request.pathParameters["n"] ?? "")") }
        return router
    }

    /// Whether the server closed the connection (readable with EOF or an error).
    private static func isClosedByServer(_ connection: TestConnection, waitingMilliseconds: Int32 = 0) -> Bool {
        var probe = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, waitingMilliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(connection.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    @Test func tricklingHeadIsCutOffDespiteActivity() throws {
        try withServer(makeRouter(), configure: {
            $0.requestHeadDeadline = .seconds(1)
            $0.connectionTimeout = 30
        }) { (server: HTTPServer) throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /n/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            // One header byte every 100 ms keeps the inactivity timeout from ever firing.
            let deadline = ContinuousClock.now + .seconds(5)
            var closed = false
            while !closed, ContinuousClock.now < deadline {
                if (try? connection.send("a")) == nil { closed = true; break }
                closed = Self.isClosedByServer(connection, waitingMilliseconds: 100)
            }
            #expect(closed)
            // A complete request on a new connection is answered as usual.
            #expect(try request(server, "GET", "/n/2").text == "n=2")
        }
    }

    @Test func keptAliveConnectionKeepsWorkingWithinTheDeadline() throws {
        try withServer(makeRouter(), configure: { $0.requestHeadDeadline = .seconds(1) }) { (server: HTTPServer) throws in
            let connection = try TestConnection(port: server.port)
            for n in 0..<3 {
                try connection.send("GET /n/\(n) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try connection.readResponse().text == "n=\(n)")
            }
            // Idle past the deadline: the kept-alive connection is closed, as by a keep-alive timeout.
            #expect(waitUntil(timeout: .seconds(5)) { Self.isClosedByServer(connection) })
        }
    }

    @Test func floodOfHalfOpenConnectionsFromManyAddressesLeavesRoom() throws {
        // The measured attack: 40 loopback addresses × 50 half-open requests. Default limits, a deadline
        // short for a test but long enough to open the flood on a loaded machine (2 s was not, on CI: the
        // first connections were reaped before the last were open).
        try withServer(makeRouter(), configure: {
            $0.requestHeadDeadline = .seconds(6)
            $0.threadPoolSize = 4
        }) { (server: HTTPServer) throws in
            var flood: [TestConnection] = []
            defer { flood.forEach { $0.close() } }
            for address in 2...41 {
                for _ in 0..<50 {
                    guard let connection = try? TestConnection(port: server.port, sourceAddress: "127.0.0.\(address)", timeout: 2)
                    else { continue }
                    try? connection.send("GET /n/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                    flood.append(connection)
                }
            }
            #expect(flood.count >= 1_000)

            // While the flood holds its slots, a legitimate client is served.
            let response = try request(server, "GET", "/n/7", sourceAddress: "127.0.0.1")
            #expect(response.text == "n=7")
            let stillHeld = flood.filter { !Self.isClosedByServer($0) }.count
            #expect(stillHeld >= 1_000)  // the request got in while the flood was on, not after the reaping

            // Every flood connection is closed by the server by the deadline (per-IP refusals at once).
            #expect(waitUntil(timeout: .seconds(15)) { flood.allSatisfy { Self.isClosedByServer($0) } })
        }
    }
}
