import Dragboard
import Foundation
import Mustache

/// The sign-in page.
struct SignInView {
    var csrf: String
    /// Where to go after signing in (a same-origin path).
    var next: String
    /// The name typed, shown again after a failure (never the password).
    var username: String
    /// Why the last attempt failed.
    var error: String?
    /// Whether a name is filled in already (the password field then takes the focus); stored,
    /// as templates see stored properties only.
    var hasUsername: Bool

    init(csrf: String, next: String, username: String = "", error: String? = nil) {
        self.csrf = csrf
        self.next = next
        self.username = username
        self.error = error
        hasUsername = !username.isEmpty
    }
}

/// The signed-in person's bar on every page: their name, the board's members (on a board), sign-out.
struct WhoView {
    var name: String
    var csrf: String
    var boardID: String?
}

/// A board's members page.
struct MembersView {
    struct Member {
        var name: String
        var role: String
        var roleTitle: String
        var roles: [SelectOption]
        var isSelf: Bool
    }

    var csrf: String
    var op: String
    var boardID: String
    var boardTitle: String
    var members: [Member]
    /// The viewer owns the board: the add, change and remove forms are shown.
    var mayManage: Bool
    var roles: [SelectOption]
    var who: String
    var error: String?
}

/// One change in an activity list.
struct ActivityView {
    var seq: Int
    /// The board's version the change made: a page told of it live (`activity` events) shows it once.
    var version: Int
    var words: String
    /// ISO 8601 (UTC), for `<time datetime>`.
    var iso: String
    /// "2026-11-26 14:05 UTC".
    var when: String

    init(_ activity: Activity) {
        seq = activity.seq
        version = activity.version
        words = activity.words
        (iso, when) = Self.shown(activity.date)
    }

    /// A moment as pages show it: ISO 8601 (UTC) for `<time datetime>`, and "2026-11-26 14:05 UTC"
    /// to read ("2026-11-26T14:05:09Z" cut up, without a DateFormatter per entry).
    static func shown(_ date: Date) -> (iso: String, when: String) {
        let iso = date.formatted(.iso8601)
        return (iso, "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC")
    }
}

/// A board's activity page.
struct ActivityPageView {
    var boardID: String
    var boardTitle: String
    var entries: [ActivityView]
    /// The `before` of the next older page, when there is one.
    var older: Int?
    var who: String
}

extension BoardRenderer {
    func activityPage(_ view: ActivityPageView) -> String {
        library.render(view, withTemplate: "activity") ?? ""
    }

    func signIn(_ view: SignInView) -> String {
        library.render(view, withTemplate: "login") ?? ""
    }

    /// The signed-in person's bar; empty where nobody signs in.
    func who(_ account: Account?, board: String?, csrf: String) -> String {
        guard let account else { return "" }
        return library.render(WhoView(name: account.name, csrf: csrf, boardID: board), withTemplate: "who") ?? ""
    }

    func members(_ members: [BoardMember], board: BoardRecord, access: BoardAccess, csrf: String, op: String, who: String, error: String? = nil) -> String {
        func options(_ selected: BoardRole?) -> [SelectOption] {
            BoardRole.allCases.reversed().map { .init(id: $0.rawValue, title: $0.title, selected: $0 == selected) }
        }
        let view = MembersView(csrf: csrf, op: op, boardID: board.id, boardTitle: board.title, members: members.map {
            .init(name: $0.account.name, role: $0.role.rawValue, roleTitle: $0.role.title, roles: options($0.role), isSelf: $0.account.id == access.account?.id)
        }, mayManage: access.mayManage, roles: options(.editor), who: who, error: error)
        return library.render(view, withTemplate: "members") ?? ""
    }
}
