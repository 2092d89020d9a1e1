import Dispatch
import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

/// Uploads on the bulk lane finish (close and sync their file) on the bulk pool, never on libmicrohttpd's threads.
@Suite struct BulkUploadTests {
    final class Gate: Sendable {
        let finishing = Atomic<Int>(0)
        let aborted = Atomic<Int>(0)
        let semaphore = DispatchSemaphore(value: 0)
    }

    /// A sink whose `finish` blocks until the gate opens, like a slow `fsync`.
    struct SlowSink: RequestBodySink {
        let gate: Gate
        func write(_ chunk: UnsafeRawBufferPointer) throws {}
        func finish() throws -> Response {
            gate.finishing.add(1, ordering: .relaxed)
            gate.semaphore.wait()
            return .text("stored")
        }
        func abort() { gate.aborted.add(1, ordering: .relaxed) }
    }

    private func makeRouter(_ gate: Gate) -> Router {
        var router = Router()
        router.post("/upload", bodyLimit: 1 << 20, lane: .bulk, streamingBody: { _ in SlowSink(gate: gate) })
        router.get("/fast") { _ in .text("fast") }
        return router
    }

    private func startUpload(_ port: Int) -> Box<Int?> {
        let status = Box<Int?>(nil)
        Thread {
            let connection = try? TestConnection(port: port, timeout: 10)
            let body = "POST /upload HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello"
            try? connection?.send(body)
            let code = (try? connection?.readResponse())?.status ?? -1
            status.update { $0 = code }
        }.start()
        return status
    }

    @Test func slowUploadFinishDoesNotBlockOtherRequests() throws {
        let gate = Gate()
        // One libmicrohttpd thread: a finish running on it would hold every other request.
        try withServer(makeRouter(gate), configure: { $0.threadPoolSize = 1; $0.bulkWorkers = 1; $0.bulkQueueLimit = 0 }) { (server: HTTPServer) throws in
            let upload = startUpload(server.port)
            defer { gate.semaphore.signal() }  // a failed expectation must not leave the server's thread blocked
            #expect(waitUntil { gate.finishing.load(ordering: .relaxed) == 1 })

            let connection = try TestConnection(port: server.port, timeout: 3)
            try connection.send("GET /fast HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().text == "fast")

            gate.semaphore.signal()
            #expect(waitUntil { upload.get() != nil })
            #expect(upload.get() == 200)
            #expect(gate.aborted.load(ordering: .relaxed) == 0)
        }
    }

    @Test func uploadRefusedByAFullPoolAbortsItsSink() throws {
        let gate = Gate()
        try withServer(makeRouter(gate), configure: { $0.threadPoolSize = 1; $0.bulkWorkers = 1; $0.bulkQueueLimit = 0 }) { (server: HTTPServer) throws in
            let first = startUpload(server.port)
            #expect(waitUntil { gate.finishing.load(ordering: .relaxed) == 1 })

            let refused = try request(server, "POST", "/upload", body: Array("hello".utf8))
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            // The refused upload's file would otherwise be left behind.
            #expect(gate.aborted.load(ordering: .relaxed) == 1)

            gate.semaphore.signal()
            #expect(waitUntil { first.get() != nil })
            #expect(first.get() == 200)
        }
    }
}
