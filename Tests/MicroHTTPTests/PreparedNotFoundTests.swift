import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// The 404 of an unknown path is prepared once at start, like static files: it must be the same answer as one
/// built per request (JSON error, the server's default headers) on every request of a kept-alive connection.
@Suite struct PreparedNotFoundTests {
    @Test func unknownPathsGetTheJSON404WithDefaultHeadersOnEveryRequest() throws {
        var router = Router()
        router.get("/items/:id") { request in .text("item \(request.pathParameters["id"] ?? "")") }
        let defaults: HTTPHeaders = ["X-Custom": "yes", "Content-Security-Policy": "default-src 'none'"]
        try withServer(router, configure: { $0.defaultHeaders = defaults }) { (server: HTTPServer) throws in
            let connection = try TestConnection(port: server.port)
            for path in ["/nothing", "/items", "/items/1/more", "/%6Eothing"] {
                try connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 404, "\(path)")
                #expect(response.text == #"{"error":{"code":"not_found","message":"No resource matches this path."}}"#)
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                #expect(response.header("X-Custom") == "yes")
                #expect(response.header("Content-Security-Policy") == "default-src 'none'")
                #expect(response.header("Connection") != "close")
            }
            // HEAD: the same head, no body; the next answer on the connection follows right after it.
            try connection.send("HEAD /nothing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try connection.readResponse(head: true)
            #expect(head.status == 404)
            #expect(head.header("X-Custom") == "yes")
            try connection.send("GET /items/7 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try connection.readResponse().text == "item 7")
            // A 404 with a body to come is sent at once; the body is read and thrown away.
            try connection.send("POST /nothing HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
            let posted = try connection.readResponse()
            #expect(posted.status == 404)
            #expect(posted.header("X-Custom") == "yes")
        }
    }
}
