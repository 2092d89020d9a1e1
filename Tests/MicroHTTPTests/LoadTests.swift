import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

@Suite struct LoadTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.get("/n/:n") { request in .text("n=\(request.pathParameters["n"] ?? "")") }
        return router
    }

    /// Runs `work` on `count` threads at once and waits for all of them.
    private func concurrently(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                work(index)
                group.leave()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        group.wait()
    }

    @Test func twoHundredParallelRequestsAreAllAnswered() throws {
        try withServer(makeRouter(), configure: { $0.perIPConnectionLimit = 0 }) { server in
            let answers = Mutex<[Int: String]>([:])
            let failures = Mutex<[String]>([])
            let port = server.port
            concurrently(200) { index in
                do {
                    let connection = try TestConnection(port: port, timeout: 10)
                    try connection.send("GET /n/\(index) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    let response = try connection.readResponse()
                    answers.withLock { $0[index] = response.status == 200 ? response.text : "status \(response.status)" }
                } catch {
                    failures.withLock { $0.append("\(index): \(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let all = answers.withLock { $0 }
            #expect(all.count == 200)
            #expect(all.allSatisfy { $0.value == "n=\($0.key)" })
        }
    }

    @Test func flood() throws {
        try withServer(makeRouter(), configure: {
            $0.perIPConnectionLimit = 16
            $0.connectionTimeout = 5
        }) { server in
            // 300 slowloris connections from 127.0.0.2: a partial request line, then silence.
            var attackers: [TestConnection] = []
            defer { attackers.forEach { $0.close() } }
            for _ in 0..<300 {
                guard let connection = try? TestConnection(port: server.port, sourceAddress: "127.0.0.2", timeout: 2) else { continue }
                try? connection.send("GET /n/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                attackers.append(connection)
            }
            #expect(attackers.count >= 16)

            // A legitimate client from 127.0.0.1 is still served, promptly.
            let start = ContinuousClock.now
            let response = try request(server, "GET", "/n/7", sourceAddress: "127.0.0.1")
            #expect(response.status == 200)
            #expect(response.text == "n=7")
            #expect(ContinuousClock.now - start < .seconds(2))

            // The server held at most the per-IP limit of them: the rest were closed right away.
            let closedByServer = {
                attackers.filter { connection in
                    var probe = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
                    return poll(&probe, 1, 0) > 0  // readable = EOF or reset from the server
                }.count
            }
            #expect(waitUntil { closedByServer() >= attackers.count - 16 })
        }
    }
}
