import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct RouterTests {
    struct Failure: Error {}

    private func makeRouter() -> Router {
        var router = Router()
        router.get("/") { _ in .text("root") }
        router.get("/items/:id") { request in .text("item \(request.pathParameters["id"] ?? "?")") }
        router.get("/items/new") { _ in .text("new form") }
        router.post("/items") { _ in .text("created", status: .created) }
        router.delete("/items/:id") { _ in Response(status: .noContent) }
        router.get("/files/*") { request in .text("file \(request.pathParameters["*"] ?? "?")") }
        router.get("/boom") { _ in throw Failure() }
        router.get("/teapot") { _ in throw HTTPError(.conflict, code: "busy", message: "Try later.") }
        router.post("/small", bodyLimit: 4) { request in .text("\(request.body.count)") }
        return router
    }

    @Test func literalBeatsParameterAndParametersAreCaptured() {
        let router = makeRouter()
        #expect(router.respond(to: Request(method: .get, path: "/items/new")).bodyText == "new form")
        #expect(router.respond(to: Request(method: .get, path: "/items/42")).bodyText == "item 42")
        #expect(router.respond(to: Request(method: .get, path: "/")).bodyText == "root")
    }

    @Test func wildcardCapturesTheRest() {
        let router = makeRouter()
        #expect(router.respond(to: Request(method: .get, path: "/files/a/b/c.txt")).bodyText == "file a/b/c.txt")
    }

    @Test func unknownPathIs404JSON() {
        let response = makeRouter().respond(to: Request(method: .get, path: "/nope"))
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.bodyText.contains(#""code":"not_found""#))
    }

    @Test func otherMethodIs405WithAllow() {
        let response = makeRouter().respond(to: Request(method: .put, path: "/items/7"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, DELETE")
        #expect(response.bodyText.contains("method_not_allowed"))
    }

    @Test func headUsesGetRouteWithoutBody() {
        let response = makeRouter().respond(to: Request(method: .head, path: "/items/1"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(response.bodyText.isEmpty)
    }

    @Test func thrownErrorsBecomeResponsesWithoutLeakingInternals() {
        let router = makeRouter()
        let failure = router.respond(to: Request(method: .get, path: "/boom"))
        #expect(failure.status == .internalServerError)
        #expect(failure.bodyText.contains("internal_error"))
        #expect(!failure.bodyText.contains("Failure"))
        let conflict = router.respond(to: Request(method: .get, path: "/teapot"))
        #expect(conflict.status == .conflict)
        #expect(conflict.bodyText == #"{"error":{"code":"busy","message":"Try later."}}"#)
    }

    @Test func bodyLimitAppliesInProcess() {
        let router = makeRouter()
        #expect(router.respond(to: Request(method: .post, path: "/small", body: [1, 2, 3, 4])).bodyText == "4")
        let tooLarge = router.respond(to: Request(method: .post, path: "/small", body: [1, 2, 3, 4, 5]))
        #expect(tooLarge.status == .payloadTooLarge)
        #expect(tooLarge.bodyText.contains("payload_too_large"))
    }

    @Test func headersAreOrderedAndCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values("SET-COOKIE") == ["a=1", "b=2"])
        headers["Set-Cookie"] = "c=3"
        #expect(headers.values("set-cookie") == ["c=3"])
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie"])
    }

    @Test func cookiesAreParsedFromHeaders() {
        let request = Request(method: .get, path: "/", headers: ["Cookie": "session=abc; theme=\"dark\"; session=ignored"])
        #expect(request.cookies == ["session": "abc", "theme": "dark"])
    }

    @Test func statusEqualityUsesTheCode() {
        #expect(HTTPStatus(code: 404, reasonPhrase: "Nope") == .notFound)
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(Response.redirect(to: "/x").status.code == 303)
        #expect(Response.redirect(to: "/x").headers["Location"] == "/x")
    }
}

@Suite struct DecodeTests {
    struct Item: Codable, Equatable {
        var title: String
        var count: Int
    }

    private func request(_ body: String, contentType: String? = "application/json") -> Request {
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        return Request(method: .post, path: "/", headers: headers, body: Array(body.utf8))
    }

    @Test func decodesJSON() throws {
        #expect(try request(#"{"title":"Milk","count":2}"#).decode(Item.self) == Item(title: "Milk", count: 2))
        #expect(try request(#"{"title":"Milk","count":2}"#, contentType: nil).decode(Item.self).count == 2)
        #expect(try request(#"{"title":"x","count":1}"#, contentType: "application/json; charset=utf-8").decode(Item.self).count == 1)
    }

    @Test func malformedJSONIs400() {
        #expect { try request("{nope").decode(Item.self) } throws: { error in
            (error as? HTTPError)?.status == .badRequest && (error as? HTTPError)?.code == "malformed_json"
        }
    }

    @Test func wrongShapeNamesTheField() {
        #expect { try request(#"{"title":"x","count":"two"}"#).decode(Item.self) } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.status == .badRequest && error.code == "invalid_body" && error.message.contains("'count'")
        }
        #expect { try request(#"{"title":"x"}"#).decode(Item.self) } throws: { error in
            (error as? HTTPError)?.message == "Missing field 'count'."
        }
    }

    @Test func nonJSONContentTypeIs415() {
        #expect { try request("title=x", contentType: "application/x-www-form-urlencoded").decode(Item.self) } throws: { error in
            (error as? HTTPError)?.status == .unsupportedMediaType
        }
    }
}

extension Response {
    var bodyText: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
}
