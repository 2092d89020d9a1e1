import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

/// The check in front of every guarded route: finds who sent the request (``Visitor``), sends
/// anyone not signed in to the sign-in page (a page) or answers 401 (anything else), and on a
/// route that names a board, lets only its members through with the role the route needs.
struct SignInGate: Sendable {
    let store: BoardStore
    let policy: SignInPolicy

    /// The request as handlers get it, with its ``Visitor`` as context.
    /// - Throws: 303 to `/login`, 401, 404 for a board the visitor is not a member of, 403 for a
    ///   change their role does not allow, 503 on a server with no accounts that serves no one.
    func admit(_ request: Request, route: Router.RouteDescription) throws -> Request {
        var visitor = try visitor(of: request)
        if let board = Self.board(of: request, route: route) {
            let access = try self.access(visitor, board: board)
            try Self.requireRole(Self.neededRole(route), access)
            visitor.access = access
        }
        var admitted = request
        admitted.context = visitor
        return admitted
    }

    /// Who sent `request`. - Throws: when nobody signed in and accounts exist.
    func visitor(of request: Request) throws -> Visitor {
        if let token = request.cookies[SignInPolicy.cookieName], Self.isWellFormed(token),
           let signIn = try store.signIn(token: token, idleLimit: TimeInterval(policy.sessionDays) * 86_400) {
            return Visitor(signIn: signIn, browserToken: signIn.csrf, isNewBrowserToken: false)
        }
        if try store.hasAccounts() { throw Self.signInRequired(request) }
        guard policy.openWithoutAccounts else {
            throw DragboardError.unavailable("this server has no accounts yet: add one with `dragboard users add NAME --admin`")
        }
        let (token, isNew) = RequestGuard.csrfToken(of: request)
        return Visitor(signIn: nil, browserToken: token, isNewBrowserToken: isNew)
    }

    /// What `visitor` may do on `board`. - Throws: 404 when they are not a member (a board's
    /// existence is not revealed to others) or it does not exist.
    func access(_ visitor: Visitor, board: String) throws -> BoardAccess {
        guard let found = try store.access(of: visitor.account, on: board) else { throw DragboardError.notFound("unknown board") }
        guard let account = visitor.account else {
            return BoardAccess(account: nil, role: .owner, boardID: board, boardTitle: found.title)
        }
        guard let role = found.role else { throw DragboardError.notFound("unknown board") }
        return BoardAccess(account: account, role: role, boardID: board, boardTitle: found.title)
    }

    /// The board a route works on: its `:board`, or the default board for the routes that name none.
    static func board(of request: Request, route: Router.RouteDescription) -> String? {
        if route.pattern.contains(":board") {
            // A malformed id is no board: the route's own check answers 404.
            return request.pathParameters["board"].flatMap { WireGrammar.idProblem($0) == nil ? $0 : nil } ?? "-"
        }
        return defaultBoardRoutes.contains(route.pattern) ? BoardStore.defaultBoardID : nil
    }

    /// Routes that serve the default board without naming it.
    static let defaultBoardRoutes: Set<String> = ["/api/board", "/events"]

    /// Reads need a viewer; changes an editor; the board's members, and deleting or renaming the board, an owner.
    static func neededRole(_ route: Router.RouteDescription) -> BoardRole {
        guard route.method != .get, route.method != .head else { return .viewer }
        let ownerOnly = ["/boards/:board/delete", "/boards/:board/rename"]
        if ownerOnly.contains(route.pattern) || route.pattern.hasPrefix("/boards/:board/members") { return .owner }
        return .editor
    }

    static func requireRole(_ needed: BoardRole, _ access: BoardAccess) throws {
        switch needed {
        case .viewer: break
        case .editor: try access.requireEditor()
        case .owner: try access.requireOwner()
        }
    }

    /// 303 to the sign-in page for a page a browser navigates to (it comes back after); 401 JSON for the rest.
    static func signInRequired(_ request: Request) -> HTTPError {
        var error = HTTPError(.unauthorized, code: "sign_in_required", message: "Sign in to use this server.")
        let wantsPage = request.headers["Accept"]?.contains("text/html") == true
        guard wantsPage else { return error }
        var next = request.method == .get || request.method == .head ? request.path : "/"
        if request.method == .get, !request.query.isEmpty {
            next += "?" + request.query.sorted { $0.key < $1.key }.map { "\(FormEncoding.escape($0.key))=\(FormEncoding.escape($0.value))" }.joined(separator: "&")
        }
        error.status = .seeOther
        error.headers["Location"] = "/login?next=" + FormEncoding.escape(next)
        return error
    }

    static func isWellFormed(_ token: String) -> Bool {
        RequestGuard.isHex(token, length: 64)
    }
}

/// Percent-encoding for a query value.
enum FormEncoding {
    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// ASCII letters and digits, `-._~` and `/` (kept readable in a path).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
}
