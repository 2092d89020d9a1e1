import Dragboard
import DragboardStore
import Foundation
import MicroHTTP
import Passwords

extension BoardService {
    /// `GET /login` and `POST /login`: public, the only pages besides the static files.
    func addSignInRoutes(to router: inout Router) {
        router.get("/login") { [self] request in
            Self.page(request) { csrf in
                renderer.signIn(SignInView(csrf: csrf, next: Self.safeNext(request.query["next"])))
            }
        }
        router.post("/login", bodyLimit: 8 * 1024) { [self] request in
            try Self.mapped { try signIn(request) }
        }
    }

    /// `POST /logout` (guarded: only a signed-in browser has something to end).
    func addSignOutRoute(to router: inout Router) {
        router.post("/logout", bodyLimit: 1024) { [self] request in
            try Self.mapped {
                _ = try RequestGuard.checkFormWrite(request, fields: try request.formFields())
                let visitor = Visitor.of(request)
                guard let signIn = visitor.signIn, let token = request.cookies[SignInPolicy.cookieName] else { return .redirect(to: "/") }
                try store.endSignIn(token: token)
                live.disconnect(signIns: [signIn.digest])
                var response = Response.redirect(to: "/login")
                response.headers["Set-Cookie"] = "\(SignInPolicy.cookieName)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"
                return response
            }
        }
    }

    /// Checks a name and password (the same Argon2id run whether or not the name exists, and one
    /// answer for both failures), then starts a sign-in with a new token and sends the browser on.
    private func signIn(_ request: Request) throws -> Response {
        let fields = try request.formFields()
        _ = try RequestGuard.checkFormWrite(request, fields: fields)
        let name = fields["username"] ?? "", password = fields["password"] ?? "", next = Self.safeNext(fields["next"])
        let csrf = Visitor.of(request).browserToken
        func again(_ error: String, status: HTTPStatus, headers: [(String, String)] = []) -> Response {
            // A script that signs in (Accept: application/json) gets the refusal as JSON, a browser the form again.
            if request.headers["Accept"]?.contains("application/json") == true, !request.prefersHTML {
                var refusal = HTTPError(status, code: status == .tooManyRequests ? "too_many_sign_ins" : "sign_in_refused", message: error)
                for (header, value) in headers { refusal.headers[header] = value }
                return refusal.response
            }
            var response = Response.html(renderer.signIn(SignInView(csrf: csrf, next: next, username: String(name.prefix(64)), error: error)), status: status)
            for (header, value) in headers { response.headers[header] = value }
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        let key = Account.nameKey(String(name.prefix(64)))
        if let retry = throttle.retryDate(name: key, address: request.remoteAddress) {
            let seconds = max(1, Int(retry.timeIntervalSinceNow.rounded(.up)))
            let minutes = (seconds + 59) / 60
            return again("Too many failed sign-ins for this name or from this address. Try again in \(minutes == 1 ? "a minute" : "\(minutes) minutes").",
                         status: .tooManyRequests, headers: [("Retry-After", String(seconds))])
        }
        let found = Account.nameProblem(name) == nil ? try store.account(named: name) : nil
        let matches = PasswordHash.verify(password, against: found?.passwordHash ?? PasswordHash.decoy)
        guard let account = found?.account, matches else {
            throttle.recordFailure(name: key, address: request.remoteAddress)
            return again("Wrong user name or password.", status: .unauthorized)
        }
        let token = PasswordHash.randomToken()
        _ = try store.startSignIn(account, token: token, csrf: DragSessions.randomToken())
        var response = Response.redirect(to: next)
        response.headers["Set-Cookie"] = signInCookie(token, secure: request.isHTTPS)
        return response
    }

    /// The sign-in cookie: HttpOnly, SameSite=Lax (a link from elsewhere still opens the board
    /// signed in), for as long as a sign-in may sit idle; `Secure` when the policy says so or the
    /// browser came over HTTPS through a trusted proxy.
    func signInCookie(_ token: String, secure: Bool = false) -> String {
        "\(SignInPolicy.cookieName)=\(token); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(signInPolicy.sessionDays * 86_400)"
            + (signInPolicy.secureCookies || secure ? "; Secure" : "")
    }

    /// `next` when it is a path on this server, else `/`: sign-in never sends a browser elsewhere.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"), next.utf8.count <= 2048,
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else { return "/" }
        return next
    }
}
