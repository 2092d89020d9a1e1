import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Behind a reverse proxy: only a trusted proxy's `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
@Suite struct ForwardingTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.get("/who") { request in .text("\(request.remoteAddress ?? "-") \(request.isHTTPS ? "https" : "http")") }
        router.get("/host") { request in .text(request.headers["Host"] ?? "-") }
        return router
    }

    @Test func aTrustedProxyNamesTheClientAndItsScheme() throws {
        try withServer(makeRouter(), configure: { $0.trustedProxies = ["127.0.0.1"] }) { (server: HTTPServer) throws in
            let forwarded = [("X-Forwarded-For", "203.0.113.9, 198.51.100.7"), ("X-Forwarded-Proto", "https")]
            #expect(try request(server, "GET", "/who", headers: forwarded).text == "198.51.100.7 https")
            #expect(try request(server, "GET", "/who", headers: [("X-Forwarded-For", "2001:db8::1")]).text == "2001:db8::1 http")
            // Not an address: the proxy's own is kept.
            #expect(try request(server, "GET", "/who", headers: [("X-Forwarded-For", "<script>")]).text == "127.0.0.1 http")
        }
    }

    @Test func aTrustedProxysForwardedHostStandsForHostInTheHostCheck() throws {
        try withServer(makeRouter(), configure: { $0.trustedProxies = ["127.0.0.1"]; $0.allowedHosts = ["boards.example.org"] }) { (server: HTTPServer) throws in
            #expect(try request(server, "GET", "/host", headers: [("X-Forwarded-Host", "boards.example.org")]).text == "boards.example.org")
            #expect(try request(server, "GET", "/host", headers: [("X-Forwarded-Host", "evil.example")]).status == 421)
            // From anyone else it is ignored: their own Host is checked.
            #expect(try request(server, "GET", "/host", headers: [("X-Forwarded-Host", "evil.example")], sourceAddress: "127.0.0.2").text == "localhost")
        }
    }

    @Test func anyoneElsesForwardingHeadersAreIgnored() throws {
        try withServer(makeRouter(), configure: { $0.trustedProxies = ["127.0.0.1"] }) { (server: HTTPServer) throws in
            let forged = [("X-Forwarded-For", "10.9.9.9"), ("X-Forwarded-Proto", "https")]
            #expect(try request(server, "GET", "/who", headers: forged, sourceAddress: "127.0.0.2").text == "127.0.0.2 http")
        }
        try withServer(makeRouter()) { (server: HTTPServer) throws in
            #expect(try request(server, "GET", "/who", headers: [("X-Forwarded-For", "10.9.9.9")]).text == "127.0.0.1 http")
        }
    }
}
