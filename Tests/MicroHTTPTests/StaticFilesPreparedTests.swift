import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Static files are answered from responses prepared once at start; they must be the same as built per request,
/// and answers decided from the head alone keep the connection alive.
@Suite struct StaticFilesPreparedTests {
    @Test func preparedResponsesCarryTheServersDefaultHeadersOnEveryRequest() throws {
        let fixture = try StaticFilesTests.Fixture()
        var router = Router()
        router.mount(try StaticFiles(directory: fixture.publicDirectory), at: "/static")
        router.mount(try StaticFiles(directory: fixture.publicDirectory + "/img", cacheControl: "no-cache"), at: "/img")
        try withServer(router, configure: { $0.defaultHeaders = ["X-Custom": "yes", "Cache-Control": "private"] }) { (server: HTTPServer) throws in
            let connection = try TestConnection(port: server.port)
            var etag = ""
            for round in 0..<3 { // one keep-alive connection: the shared response is queued again and again
                try connection.send("GET /static/style.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "body { color: red }\n", "round \(round)")
                #expect(response.header("X-Custom") == "yes")
                #expect(response.header("Cache-Control") == "public, max-age=300")  // the file's own wins
                #expect(response.header("Content-Type") == "text/css; charset=utf-8")
                #expect(response.header("Connection") != "close")
                etag = try #require(response.header("ETag"))
            }
            try connection.send("GET /static/style.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \(etag)\r\n\r\n")
            let cached = try connection.readResponse()
            #expect(cached.status == 304)
            #expect(cached.header("X-Custom") == "yes")
            #expect(cached.header("ETag") == etag)
            #expect(cached.header("Content-Type") == nil)

            try connection.send("HEAD /static/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try connection.readResponse(head: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "18")
            // The body of HEAD is not sent: the next response on the connection starts right after the head.
            try connection.send("GET /img/logo.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let second = try connection.readResponse()
            #expect(second.text.hasPrefix("<svg"))
            #expect(second.header("Cache-Control") == "no-cache")  // each mount keeps its own responses
            // A path outside the allow-list is still a JSON 404.
            try connection.send("GET /static/nope.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let missing = try connection.readResponse()
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            #expect(missing.header("Connection") != "close")
            // Keep-alive holds after a 404 too.
            try connection.send("GET /static/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try connection.readResponse().text == "console.log('hi')\n")
        }
    }
}
