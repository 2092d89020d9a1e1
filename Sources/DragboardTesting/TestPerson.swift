import Dragboard
import DragboardHTTP
import DragboardStore
import Foundation
import MicroHTTP
import MicroHTTPTesting
import Passwords

/// A person signed in to a ``DragboardTestApp``, in a browser of their own: their requests carry
/// their sign-in cookie, and their writes echo the CSRF token bound to that sign-in.
public struct TestPerson: Sendable {
    public let name: String
    /// The sign-in token, as the `dragboard_session` cookie holds it.
    public let token: String
    /// The CSRF token of the sign-in, as their pages carry it.
    public let csrf: String
    let app: DragboardTestApp

    /// The `Cookie` header of their browser.
    public var cookie: String { "\(SignInPolicy.cookieName)=\(token); \(RequestGuard.cookieName)=\(app.csrf)" }

    public func get(_ path: String, headers: HTTPHeaders = [:]) throws -> TestResponse {
        var headers = headers
        headers["Cookie"] = cookie
        return try app.execute(.get, path, headers: headers)
    }

    /// Posts `object` as JSON with their token, as their page's scripts do.
    public func post(_ path: String, json object: Any) throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try app.execute(.post, path, headers: ["Cookie": cookie, "Content-Type": "application/json", RequestGuard.headerName: csrf], body: Array(body))
    }

    /// Posts a plain HTML form with their token in its `csrf` field.
    public func postForm(_ path: String, _ fields: [String: String], headers: HTTPHeaders = [:]) throws -> TestResponse {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = csrf }
        var headers = headers
        headers["Cookie"] = cookie
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try app.execute(.post, path, headers: headers, body: app.formBody(fields))
    }
}

extension DragboardTestApp {
    /// Adds an account as `dragboard users add` does (its password hashed with Argon2id).
    @discardableResult
    public func addAccount(_ name: String, password: String = "password-of-a-test", admin: Bool = false) throws -> Account {
        try store.addAccount(name: name, passwordHash: try PasswordHash.make(password), isAdmin: admin)
    }

    /// Signs `name` in through `POST /login`, as a browser of their own would.
    /// - Throws: ``TestFailure`` when sign-in does not answer 303 with a sign-in cookie.
    public func signIn(_ name: String, password: String = "password-of-a-test") throws -> TestPerson {
        let answer = try postForm("/login", ["username": name, "password": password, "next": "/"])
        guard answer.status == 303, let cookie = answer.headers.first(where: { $0.name.lowercased() == "set-cookie" })?.value,
              let token = cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init)
        else { throw TestFailure("sign-in of \(name) answered \(answer.status): \(answer.text)") }
        let page = try execute(.get, "/", headers: ["Cookie": "\(SignInPolicy.cookieName)=\(token); \(RequestGuard.cookieName)=\(csrf)"])
        guard let range = page.text.range(of: #"<meta name="csrf-token" content="([0-9a-f]+)">"#, options: .regularExpression) else {
            throw TestFailure("the index of \(name) carries no CSRF token")
        }
        let csrf = String(page.text[range].split(separator: "\"")[3])
        return TestPerson(name: name, token: token, csrf: csrf, app: self)
    }
}

extension TestPerson {
    /// Opens `board`'s live stream in their browser (live transport only); the first event is its `hello`.
    public func events(board: String = BoardStore.defaultBoardID, timeout: Double = 10) throws -> TestEventStream {
        guard let port = app.port else { throw TestFailure("live events need the live transport") }
        return try TestEventStream(port: port, path: "/boards/\(board)/events", cookie: cookie, timeout: timeout)
    }
}
