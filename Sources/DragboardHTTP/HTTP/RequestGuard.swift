import Dragboard
import MicroHTTP

/// CSRF and origin checks for state-changing requests.
///
/// The page carries the viewer's CSRF token: the sign-in's (bound to it), or where nobody signs
/// in, the browser's (also set as an HttpOnly, SameSite=Strict cookie); a write must echo it in `X-CSRF-Token` (a plain form: in its `csrf` field), and must come
/// from the same origin as far as `Sec-Fetch-Site` and `Origin` say.
package enum RequestGuard {
    package static let cookieName = "dragboard_csrf"
    package static let headerName = "X-CSRF-Token"

    /// The viewer's token, or a new one to set.
    static func csrfToken(of request: Request) -> (token: String, isNew: Bool) {
        if let token = request.cookies[cookieName], isWellFormed(token) { return (token, false) }
        return (DragSessions.randomToken(), true)
    }

    /// `secure`: the browser reached us over HTTPS (through a proxy that says so).
    static func cookie(_ token: String, secure: Bool = false) -> String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The owner of the request's drag sessions (its browser's token), once it passed every check.
    static func checkWrite(_ request: Request) throws -> String {
        try check(request, token: request.headers[headerName])
    }

    /// ``checkWrite(_:)`` for a plain HTML form, which cannot send a header: the token comes
    /// in the form's `csrf` field instead; the origin checks are the same.
    static func checkFormWrite(_ request: Request, fields: [String: String]) throws -> String {
        try check(request, token: fields["csrf"])
    }

    /// Same origin as far as `Sec-Fetch-Site` and `Origin` say, and `token` matches the cookie.
    private static func check(_ request: Request, token: String?) throws -> String {
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin" {
            throw DragboardError.forbidden("cross-site requests are not allowed")
        }
        if let origin = request.headers["Origin"], let host = request.headers["Host"], origin != "http://\(host)" && origin != "https://\(host)" {
            throw DragboardError.forbidden("the request's origin does not match this server")
        }
        // A signed-in browser echoes its sign-in's token; one on a server without accounts, its cookie.
        let visitor = Visitor.of(request)
        guard !visitor.isNewBrowserToken, let token, token == visitor.browserToken else {
            throw DragboardError.forbidden("missing or wrong CSRF token; reload the page")
        }
        return visitor.browserToken
    }

    static func isWellFormed(_ token: String) -> Bool {
        isHex(token, length: 32)
    }

    /// Whether `token` is `length` ASCII hexadecimal digits, read as bytes: walking its characters
    /// (grapheme by grapheme) cost more than the rest of a request's checks.
    static func isHex(_ token: String, length: Int) -> Bool {
        token.utf8.count == length && token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
    }
}
