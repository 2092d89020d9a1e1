import Dragboard
import DragboardStore
import Foundation
import MicroHTTP

extension BoardService {
    /// How many changes the board page's activity panel shows.
    static let activityPanelSize = 10
    /// How many changes a page of `/boards/<id>/activity` holds.
    static let activityPageSize = 50

    /// `GET /boards/<id>/activity`: the board's changes, newest first, in words with their time;
    /// 50 a page, older ones with `before=<seq>` (the `next` of the JSON, the "Older" link).
    func addActivityRoutes(to router: inout Router) {
        router.get("/boards/:board/activity") { [self] request in
            try Self.mapped {
                let board = try Self.boardID(request)
                var before: Int?
                if let value = request.query["before"] {
                    guard let number = Int(value), number > 0 else { throw DragboardError.badRequest("before is a positive whole number") }
                    before = number
                }
                let entries = try store.activity(board: board, before: before, limit: Self.activityPageSize + 1)
                let page = Array(entries.prefix(Self.activityPageSize))
                let older = entries.count > Self.activityPageSize ? page.last?.seq : nil
                if request.headers["Accept"]?.contains("application/json") == true {
                    return .jsonBody(Array(LiveEvent.json(ActivityPage(entries: page.map(ActivityPage.Entry.init), next: older)).utf8))
                }
                guard let record = try store.board(board) else { throw DragboardError.notFound("unknown board") }
                let visitor = Visitor.of(request)
                return Self.page(request) { csrf in
                    renderer.activityPage(ActivityPageView(boardID: board, boardTitle: record.title, entries: page.map(ActivityView.init), older: older,
                                                           who: renderer.who(visitor.account, board: board, csrf: csrf)))
                }
            }
        }
    }
}

/// `GET /boards/<id>/activity` as JSON.
struct ActivityPage: Encodable {
    struct Entry: Encodable {
        var seq: Int
        var version: Int
        var author: String
        var words: String
        /// ISO 8601, UTC.
        var at: String

        init(_ activity: Activity) {
            seq = activity.seq
            version = activity.version
            author = activity.author
            words = activity.words
            at = activity.date.formatted(.iso8601)
        }
    }

    var entries: [Entry]
    /// The `before` of the next older page; nil on the last.
    var next: Int?
}
