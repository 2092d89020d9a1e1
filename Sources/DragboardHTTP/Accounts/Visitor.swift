import Dragboard
import DragboardStore
import MicroHTTP

/// Who sent a request, as the sign-in gate found them: a signed-in person, or (on a server with
/// no accounts, loopback only) a browser known by its CSRF cookie. Handlers read it from
/// ``MicroHTTP/Request/context``.
struct Visitor: Sendable {
    /// The sign-in, when accounts exist.
    var signIn: SignIn?
    /// The token the visitor's pages carry and writes must echo: the sign-in's, or the browser's cookie.
    var browserToken: String
    /// Whether ``browserToken`` is new (no cookie yet): the page sets it, and a write cannot match it.
    var isNewBrowserToken: Bool
    /// The visitor's rights on the board the route names (set by the gate for board routes).
    var access: BoardAccess?

    var account: Account? { signIn?.account }

    /// Whose undo history the visitor's changes join: the person's (every browser they sign in
    /// from), or, with no accounts, the browser's.
    var historyIdentity: String {
        signIn.map { "account\u{1F}\($0.account.id)" } ?? browserToken
    }

    /// The visitor as the author of a change: the undo history it joins and the name its activity shows.
    var author: ChangeAuthor {
        ChangeAuthor(undoOwner: BoardService.historyOwner(historyIdentity), name: account?.name ?? Activity.someone)
    }

    /// The visitor of a request the gate let through; for a request that never met the gate (a
    /// public route), the browser by its cookie.
    static func of(_ request: Request) -> Visitor {
        if let visitor = request.context as? Visitor { return visitor }
        let (token, isNew) = RequestGuard.csrfToken(of: request)
        return Visitor(signIn: nil, browserToken: token, isNewBrowserToken: isNew)
    }
}

/// Who makes a change: the undo history it joins, and the name the board's activity shows.
struct ChangeAuthor: Sendable {
    var undoOwner: String
    var name: String
}
