// The Swift of the DocC catalogs (Sources/*/*.docc) that docs/kit.md does not already show, compiled
// (Tests/layout/test_doc_snippets.py checks it is here verbatim).
import Foundation
import MicroHTTP
import Testing

/// MicroHTTP's landing page: a router served by libmicrohttpd (compiled, never run: it would listen).
func serveHello() throws {
    var router = Router()
    router.get("/hello/:name") { request in
        .text("Hello, \(request.pathParameters["name"] ?? "you")!")
    }
    router.mount(try StaticFiles(directory: "Public"), at: "/static")
    let server = HTTPServer(configuration: .init(port: 8080), router: router)
    try server.start()
}

@Test func helloAnswersByName() throws {
    var router = Router()
    router.get("/hello/:name") { request in
        .text("Hello, \(request.pathParameters["name"] ?? "you")!")
    }
    let response = router.respond(to: Request(method: .get, path: "/hello/Ada"))
    guard case .bytes(let body) = response.body else {
        Issue.record("the answer is a stream")
        return
    }
    #expect(response.status == .ok)
    #expect(String(decoding: body, as: UTF8.self) == "Hello, Ada!")
}
