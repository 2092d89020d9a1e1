import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Answers in the form the client asked for: NUL bytes in the target, and errors a browser sees as a page.
@Suite struct FramingAnswerTests {
    private func makeRouter(hits: Box<Int>) -> Router {
        var router = Router()
        router.get("/page") { _ in
            hits.update { $0 += 1 }
            return .html("<p>page</p>")
        }
        router.post("/echo", bodyLimit: 1024) { request in
            hits.update { $0 += 1 }
            return .text("got \(request.body.count)")
        }
        router.get("/teapot") { _ in throw HTTPError(.badRequest, code: "teapot", message: "No <coffee> here.") }
        return router
    }

    private func rawBytes(_ server: HTTPServer, _ text: String) throws -> String {
        let connection = try TestConnection(port: server.port)
        defer { connection.close() }
        try connection.send(text)
        return String(decoding: try connection.readUntilClosed(), as: UTF8.self)
    }

    private func statusLines(_ text: String) -> [Substring] {
        text.split(separator: "\r\n").filter { $0.hasPrefix("HTTP/1.") }
    }

    /// The status of every status line, also one that follows a body without a line break.
    private func statuses(_ text: String) -> [String] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
    }

    @Test func aRawNULInTheTargetIs400() throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            for target in ["/page\u{0}.html", "/page\u{0}", "/page?x=1\u{0}y", "/pa\u{0}ge?x=1"] {
                let text = try rawBytes(server, "GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                #expect(statusLines(text) == ["HTTP/1.1 400 Bad Request"], "\(target.debugDescription)")
            }
            #expect(try rawBytes(server, "GET /page%00.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 400"))
            #expect(try rawBytes(server, "GET /page?x=1&y=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
            #expect(try rawBytes(server, "GET /page? HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200"))
            #expect(hits.get() == 2)
        }
    }

    /// libmicrohttpd refuses these itself, inside its header parsing; Debian's 0.9.75 built the header
    /// block of that answer twice (fixed by Vendor/libmicrohttpd, which `make` links).
    @Test(arguments: [("abc", "400"), ("-1", "400"), ("1180591620717411303424", "413"), ("", "400")])
    func aContentLengthLibmicrohttpdRefusesIsAnsweredOnce(value: String, status: String) throws {
        let hits = Box(0)
        try withServer(makeRouter(hits: hits)) { (server: HTTPServer) throws in
            let bad = "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(value)\r\n\r\n"
            #expect(statuses(try rawBytes(server, bad)) == [status])
            // The same as the second request of a kept-alive connection: one answer each.
            let good = "GET /page HTTP/1.1\r\nHost: localhost\r\n\r\n"
            #expect(statuses(try rawBytes(server, good + bad)) == ["200", status])
            #expect(hits.get() == 1)
        }
    }

    @Test func aBrowserGetsEveryErrorAsAPageAndOtherClientsGetJSON() throws {
        try withServer(makeRouter(hits: Box(0))) { (server: HTTPServer) throws in
            let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
            let cases: [(method: String, path: String, extra: String, status: Int)] = [
                ("GET", "/missing", "", 404),
                ("DELETE", "/page", "", 405),
                ("GET", "/teapot", "", 400),
                ("POST", "/echo", "Content-Length: 5000\r\n", 413),
                ("GET", "/page", "Content-Length: 1\r\nContent-Length: 2\r\n", 400),
            ]
            for item in cases {
                let head = "\(item.method) \(item.path) HTTP/1.1\r\nHost: localhost\r\n\(item.extra)Connection: close\r\n"
                let page = try rawBytes(server, head + "Accept: \(browser)\r\n\r\n")
                #expect(page.hasPrefix("HTTP/1.1 \(item.status)"), "\(item)")
                #expect(page.contains("Content-Type: text/html"), "\(item)")
                #expect(page.contains(#"<a href="/">"#), "a way back: \(item)")
                let json = try rawBytes(server, head + "Accept: */*\r\n\r\n")
                #expect(json.hasPrefix("HTTP/1.1 \(item.status)") && json.contains("application/json"), "\(item)")
            }
            let teapot = try rawBytes(server, "GET /teapot HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n")
            #expect(teapot.contains("No &lt;coffee&gt; here."), "the message, escaped")
            let notAllowed = try rawBytes(server, "DELETE /page HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n")
            #expect(notAllowed.contains("Allow: GET, HEAD"))
        }
    }

    @Test func theServerRendersTheConfiguredPage() throws {
        try withServer(makeRouter(hits: Box(0)), configure: { $0.errorPage = { error, request in "<p>ours \(error.status.code) \(request.path)</p>" } }) { (server: HTTPServer) throws in
            let page = try rawBytes(server, "GET /missing HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n")
            #expect(page.hasSuffix("<p>ours 404 /missing</p>"))
        }
    }
}
