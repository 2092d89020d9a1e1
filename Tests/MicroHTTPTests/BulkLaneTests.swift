import Dispatch
import Foundation
import Logging
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

/// Slow handlers on the bulk lane run off libmicrohttpd's threads, so quick requests keep being served.
@Suite struct BulkLaneTests {
    /// A gate the bulk handler waits on, and how many handlers have entered it.
    final class Gate: Sendable {
        let entered = Atomic<Int>(0)
        let semaphore = DispatchSemaphore(value: 0)
    }

    private func makeRouter(_ gate: Gate) -> Router {
        var router = Router()
        router.get("/slow", lane: .bulk) { _ in
            gate.entered.add(1, ordering: .relaxed)
            gate.semaphore.wait()
            return .text("slow done")
        }
        router.get("/fast") { _ in .text("fast") }
        return router
    }

    /// Starts a request on its own thread; its result lands in the returned box.
    private func startRequest(_ server: HTTPServer, _ path: String) -> Box<Result<Int, TestClientError>?> {
        let result = Box<Result<Int, TestClientError>?>(nil)
        let port = server.port
        Thread {
            do {
                let connection = try TestConnection(port: port, timeout: 10)
                try connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let response = try connection.readResponse()
                result.update { $0 = .success(response.status) }
            } catch {
                result.update { $0 = .failure(error as? TestClientError ?? .closedEarly) }
            }
        }.start()
        return result
    }

    @Test func slowBulkHandlerDoesNotBlockInteractiveRequests() throws {
        let gate = Gate()
        // One libmicrohttpd thread: without the bulk lane, the slow handler would hold it.
        try withServer(makeRouter(gate), configure: { $0.threadPoolSize = 1; $0.bulkWorkers = 1; $0.bulkQueueLimit = 0 }) {
            (server: HTTPServer) throws in
            let slow = startRequest(server, "/slow")
            #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })

            let connection = try TestConnection(port: server.port, timeout: 3)
            try connection.send("GET /fast HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().text == "fast")

            // The pool (one worker, no queue) is full: a second bulk request is refused at once.
            let busy = try TestConnection(port: server.port, timeout: 3)
            try busy.send("GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let refused = try busy.readResponse()
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.errorCode == "server_busy")

            gate.semaphore.signal()
            #expect(waitUntil { slow.get() != nil })
            #expect(try slow.get()?.get() == 200)
        }
    }

    @Test func stopAnswersBulkRequestsStillRunning() throws {
        let gate = Gate()
        let server = HTTPServer(
            configuration: .init(port: 0, threadPoolSize: 1),
            router: makeRouter(gate),
            logger: .init(label: "test") { _ in LogRecorder().handler() }
        )
        try server.start()
        let slow = startRequest(server, "/slow")
        #expect(waitUntil { gate.entered.load(ordering: .relaxed) == 1 })
        // The handler never returns before stop: stop must still end cleanly (no suspended connection left).
        server.stop()
        #expect(waitUntil { slow.get() != nil })
        #expect(try slow.get()?.get() == 503)
        gate.semaphore.signal()
    }
}
