import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// The fast paths of response building: hand-written JSON errors and large bodies sent without a copy.
@Suite struct ResponsePathTests {
    @Test(arguments: [
        "plain",
        #"quote " and backslash \ and slash /"#,
        "line\nbreak\rreturn\ttab\u{08}\u{0C}",
        "control \u{01}\u{1F} end",
        "unicode é 🐈 \u{2028}",
        "",
    ])
    func errorBodyIsJSONWithTheExactMessage(message: String) throws {
        let response = HTTPError(.badRequest, code: "bad \"code\"", message: message).response
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "bad \"code\"")
        #expect(error["message"] as? String == message)
        #expect(object.count == 1 && error.count == 2)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func largeBodiesArriveIntact() throws {
        let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var router = Router()
        router.get("/large") { _ in Response(headers: ["Content-Type": "application/octet-stream"], body: .bytes(large)) }
        router.get("/large-bulk", lane: .bulk) { _ in Response(body: .bytes(large)) }
        try withServer(router) { (server: HTTPServer) throws in
            for path in ["/large", "/large-bulk", "/large"] {
                let response = try request(server, "GET", path)
                #expect(response.status == 200)
                #expect(response.header("Content-Length") == "\(large.count)")
                #expect(response.body == large, "\(path)")
            }
        }
    }
}
