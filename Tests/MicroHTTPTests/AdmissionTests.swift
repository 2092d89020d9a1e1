import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// The checks every request head passes before any handler: the Host allow-list (DNS rebinding) and
/// unambiguous framing (request smuggling).
@Suite struct AdmissionTests {
    private func makeRouter(hits: Box<Int>) -> Router {
        var router = Router()
        router.get("/page") { _ in
            hits.update { $0 += 1 }
            return .html("<p>token</p>")
        }
        router.post("/echo", bodyLimit: 1024) { request in
            hits.update { $0 += 1 }
            return .text("got \(request.body.count)")
        }
        return router
    }

    /// Sends raw bytes on a fresh connection and reads one response.
    private func raw(_ server: HTTPServer, _ text: String) throws -> TestResponse {
        let connection = try TestConnection(port: server.port)
        try connection.send(text)
        return try connection.readResponse()
    }

    private func get(_ server: HTTPServer, host: String) throws -> TestResponse {
        try raw(server, "GET /page HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    }

    @Test func foreignHostIs421AndRunsNoHandler() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            for host in ["evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example", "localhost@evil"] {
                let response = try get(server, host: host)
                #expect(response.status == 421, "\(host)")
                #expect(response.errorCode == "misdirected_request")
                #expect(!response.text.contains("token"))
            }
            // Unknown paths too: nothing about the server leaks to a foreign host.
            let missing = try raw(server, "GET /nothing HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(missing.status == 421)
            #expect(hits.get() == 0)
        }
    }

    @Test func loopbackAndConfiguredNamesAreAccepted() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits), configure: { $0.allowedHosts = ["Board.Example"] }) { (server: HTTPServer) throws in
            let port = server.port
            for host in ["localhost", "LOCALHOST:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "[::1]", "localhost.",
                         "board.example", "board.example:\(port)"] {
                #expect(try get(server, host: host).status == 200, "\(host)")
            }
            #expect(hits.get() == 8)
        }
    }

    @Test func wildcardBindAcceptsOnlyLoopbackAndListedNames() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits), configure: { $0.host = "0.0.0.0"; $0.allowedHosts = ["dragboard.lan"] }) { (server: HTTPServer) throws in
            #expect(try get(server, host: "0.0.0.0:\(server.port)").status == 421)
            #expect(try get(server, host: "my-machine").status == 421)
            #expect(try get(server, host: "dragboard.lan:\(server.port)").status == 200)
            #expect(try get(server, host: "127.0.0.1").status == 200)
        }
    }

    @Test func missingOrRepeatedHostIs400() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            let missing = try raw(server, "GET /page HTTP/1.1\r\nConnection: close\r\n\r\n")
            #expect(missing.status == 400)
            #expect(missing.errorCode == "bad_request")
            #expect(try raw(server, "GET /page HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n").status == 400)
            // HTTP/1.0 has no Host requirement (and no browser omits it).
            #expect(try raw(server, "GET /page HTTP/1.0\r\n\r\n").status == 200)
            #expect(hits.get() == 1)
        }
    }

    @Test func bareLineFeedsAre400() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            let requestLine = try raw(server, "GET /page HTTP/1.1\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(requestLine.status == 400)
            let header = try raw(server, "GET /page HTTP/1.1\r\nHost: localhost\nConnection: close\r\n\r\n")
            #expect(header.status == 400)
            #expect(header.errorCode == "bad_request")
            let lastHeader = try raw(server, "GET /page HTTP/1.1\r\nHost: localhost\r\nConnection: close\n\n")
            #expect(lastHeader.status == 400)
            let blankLine = try raw(server, "GET /page HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\n")
            #expect(blankLine.status == 400)
            #expect(hits.get() == 0)
            // CRLF everywhere, odd but legal spacing, and an empty value still pass.
            let fine = try raw(server, "GET /page HTTP/1.1\r\nHost:localhost\r\nX-Pad: a  \r\nX-Empty:\r\nConnection: close\r\n\r\n")
            #expect(fine.status == 200)
            let trailingBlanks = try raw(server, "GET /page HTTP/1.1\r\nHost: localhost\r\nConnection: close \t \r\n\r\n")
            #expect(trailingBlanks.status == 200)
        }
    }

    @Test func spacesInTargetOrHeaderNamesAre400() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            let target = try raw(server, "GET /page x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(target.status == 400)
            #expect(target.errorCode == "bad_request")
            let name = try raw(server, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length : 3\r\nConnection: close\r\n\r\nabc")
            #expect(name.status == 400)
            #expect(hits.get() == 0)
        }
    }

    @Test func ambiguousBodyLengthsAre400() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            let head = "POST /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            let twoLengths = try raw(server, head + "Content-Length: 3\r\nContent-Length: 13\r\n\r\nabcGET /x HTTP/1.1\r\n")
            #expect(twoLengths.status == 400)
            #expect(twoLengths.header("Connection")?.lowercased() == "close")
            #expect(try raw(server, head + "Content-Length: 3, 13\r\n\r\nabc").status == 400)
            #expect(try raw(server, head + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n").status == 400)
            #expect(try raw(server, head + "Transfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n").status == 400)
            #expect(try raw(server, head + "Content-Length: +3\r\n\r\nabc").status == 400)
            #expect(hits.get() == 0)
            // The same length twice is unambiguous.
            let same = try raw(server, head + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
            #expect(same.status == 200)
            #expect(same.text == "got 3")
        }
    }
}
