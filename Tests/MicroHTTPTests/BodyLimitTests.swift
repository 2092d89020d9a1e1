import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

@Suite struct BodyLimitTests {
    /// Records what a streaming upload saw, shared between the sink and the test.
    final class UploadLog: Sendable {
        struct State: Sendable {
            var bytes = 0
            var checksum: UInt64 = 0
            var writes = 0
            var finished = 0
            var aborted = 0
        }
        let state = Mutex(State())
        var snapshot: State { state.withLock { $0 } }
    }

    struct CountingSink: RequestBodySink {
        let log: UploadLog
        func write(_ chunk: UnsafeRawBufferPointer) throws {
            log.state.withLock { state in
                state.writes += 1
                state.bytes += chunk.count
                for byte in chunk { state.checksum = state.checksum &* 31 &+ UInt64(byte) }
            }
        }
        func finish() throws -> Response {
            let state = log.state.withLock { state in
                state.finished += 1
                return state
            }
            return .json(["bytes": state.bytes, "checksum": Int(truncatingIfNeeded: state.checksum)])
        }
        func abort() {
            log.state.withLock { $0.aborted += 1 }
        }
    }

    private func makeRouter(log: UploadLog) -> Router {
        var router = Router()
        router.post("/small", bodyLimit: 1024) { request in .text("got \(request.body.count)") }
        router.post("/upload", bodyLimit: 4 << 20, streamingBody: { _ in CountingSink(log: log) })
        router.post("/upload-small", bodyLimit: 1000, streamingBody: { _ in CountingSink(log: log) })
        router.post("/refuse", bodyLimit: 1 << 20, streamingBody: { _ in
            throw HTTPError(.unauthorized, code: "unauthorized", message: "Log in first.")
        })
        return router
    }

    private static func chunked(_ body: [UInt8], chunkSize: Int) -> [UInt8] {
        var encoded: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            encoded += Array((String(end - offset, radix: 16) + "\r\n").utf8) + body[offset..<end] + [13, 10]
            offset = end
        }
        return encoded + Array("0\r\n\r\n".utf8)
    }

    @Test func bodyWithinLimitIsBuffered() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let response = try request(server, "POST", "/small", body: Array(repeating: 7, count: 1024))
            #expect(response.text == "got 1024")
        }
    }

    @Test func oversizedContentLengthIs413BeforeTheBodyIsSent() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let connection = try TestConnection(port: server.port)
            // Announce 10 MB, send none of it: the answer must come from the headers alone.
            try connection.send("POST /small HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.errorCode == "payload_too_large")
            #expect((response.json?["error"] as? [String: Any])?["message"] as? String == "The request body is larger than 1 KB.")
            #expect(response.header("X-Frame-Options") == "DENY")
        }
    }

    @Test func oversizedChunkedBodyIs413() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /small HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            try connection.send(Self.chunked(Array(repeating: 1, count: 5000), chunkSize: 700))
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.errorCode == "payload_too_large")
        }
    }

    @Test func endlessChunkedBodyIsCutOff() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /small HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            // libmicrohttpd cannot answer before the body ends, so after draining the allowance (8 MiB for a
            // small limit) the server hangs up.
            let chunk = Array((String(64 * 1024, radix: 16) + "\r\n").utf8) + Array(repeating: 1, count: 64 * 1024) + [13, 10]
            var sent = 0
            while sent < 64 << 20, (try? connection.send(chunk)) != nil { sent += 64 * 1024 }
            #expect(sent < 64 << 20)
            let rest = (try? connection.readUntilClosed()) ?? []
            #expect(!String(decoding: rest, as: UTF8.self).contains("200 OK"))
            #expect(try request(server, "GET", "/small").status == 405)  // still serving
        }
    }

    @Test func chunkedBodyTenTimesOverTheLimitGetsAReadable413() throws {
        var router = Router()
        router.post("/one-mb", bodyLimit: 1 << 20) { request in .text("got \(request.body.count)") }
        try withServer(router) { server in
            let connection = try TestConnection(port: server.port, timeout: 10)
            try connection.send("POST /one-mb HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array((String(64 * 1024, radix: 16) + "\r\n").utf8) + Array(repeating: 7, count: 64 * 1024) + [13, 10]
            for _ in 0..<160 { try connection.send(chunk) }  // 10 MiB, ten times the limit
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.errorCode == "payload_too_large")
            #expect(response.text.contains("1 MB"))
        }
    }

    @Test func chunkedBodyWithinLimitIsAccepted() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /small HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            try connection.send(Self.chunked(Array(repeating: 1, count: 1000), chunkSize: 300))
            #expect(try connection.readResponse().text == "got 1000")
        }
    }

    @Test func streamingBodyReceivesEveryByte() throws {
        let log = UploadLog()
        try withServer(makeRouter(log: log)) { server in
            let body = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            var expected: UInt64 = 0
            for byte in body { expected = expected &* 31 &+ UInt64(byte) }
            let response = try request(server, "POST", "/upload", body: body)
            #expect(response.status == 200)
            let json = try #require(response.json)
            #expect(json["bytes"] as? Int == body.count)
            #expect(json["checksum"] as? Int == Int(truncatingIfNeeded: expected))
            let state = log.snapshot
            #expect(state.writes > 1)  // streamed in pieces, never buffered whole
            #expect(state.finished == 1 && state.aborted == 0)
        }
    }

    @Test func streamingBodyOverLimitAborts() throws {
        let log = UploadLog()
        try withServer(makeRouter(log: log)) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /upload-small HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            try connection.send(Self.chunked(Array(repeating: 9, count: 3000), chunkSize: 400))
            let response = try connection.readResponse()
            #expect(response.status == 413)
            let state = log.snapshot
            #expect(state.aborted == 1 && state.finished == 0)
            #expect(state.bytes <= 1000)
        }
    }

    @Test func streamingBodyAbortsWhenClientLeaves() throws {
        let log = UploadLog()
        try withServer(makeRouter(log: log)) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n")
            try connection.send(Array(repeating: 3, count: 5000))
            #expect(waitUntil { log.snapshot.bytes == 5000 })
            connection.close()
            #expect(waitUntil { log.snapshot.aborted == 1 })
            #expect(log.snapshot.finished == 0)
        }
    }

    /// The bound on cleanup: a client gone silent mid-body (or whose close libmicrohttpd's epoll
    /// mode missed, see `HTTPServer.Configuration.connectionTimeout`) is aborted at the timeout.
    @Test func streamingBodyAbortsWhenTheClientFallsSilent() throws {
        let log = UploadLog()
        try withServer(makeRouter(log: log), configure: { $0.connectionTimeout = 1 }) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n")
            try connection.send(Array(repeating: 3, count: 5000))
            #expect(waitUntil { log.snapshot.bytes == 5000 })
            #expect(waitUntil { log.snapshot.aborted == 1 })  // the connection stays open all along
            #expect(log.snapshot.finished == 0)
            connection.close()
        }
    }

    @Test func sinkFactoryCanRefuseBeforeTheBody() throws {
        try withServer(makeRouter(log: UploadLog())) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("POST /refuse HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500000\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 401)
            #expect(response.errorCode == "unauthorized")
        }
    }
}
