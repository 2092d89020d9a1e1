import Foundation
import MicroHTTP
import Synchronization

/// Who is on a board and what they are doing: presence, drags in the air, the activity panel.
/// These events carry no id (they are no version of the board), so a reconnecting browser's
/// `Last-Event-ID` still says which version it has.
extension LiveHub {
    /// Sends `event` to every viewer of `board` (formatted once, in order with the board's changes).
    func tell(event: String, board: String, json: String) {
        let all = streams.withLock { $0.values.filter { $0.viewer.board == board }.map(\.stream) }
        guard !all.isEmpty else { return }
        hand(ServerSentEvent(event: event, data: json), to: all)
    }

    /// Whether anyone views `board` now: events nobody would hear are not even made.
    func hasViewers(_ board: String) -> Bool {
        streams.withLock { $0.values.contains { $0.viewer.board == board } }
    }

    /// The signed-in people viewing `board` now, by name, each once.
    func people(on board: String) -> [String] {
        let names = streams.withLock { $0.values.compactMap { $0.viewer.board == board ? $0.viewer.name : nil } }
        return Set(names).sorted { $0.lowercased() < $1.lowercased() }
    }

    /// Tells `board`'s viewers of a change in the words of its activity (the side panel).
    func tellActivity(board: String, version: Int, author: String, words: String, at date: Date) {
        guard hasViewers(board) else { return }
        let event = LiveEvent.Activity(version: version, author: author, words: words, at: date.formatted(.iso8601))
        tell(event: LiveEvent.activity, board: board, json: LiveEvent.json(event))
    }

    /// Tells `board`'s viewers who views it now (`presence`: `{people}`).
    func announcePresence(board: String) {
        tell(event: LiveEvent.presence, board: board, json: LiveEvent.json(LiveEvent.Presence(people: people(on: board))))
    }
}

/// The live events beyond a board's changes, and their data.
enum LiveEvent {
    static let presence = "presence"
    static let dragging = "dragging"
    static let activity = "activity"

    /// Who views the board.
    struct Presence: Encodable {
        var people: [String]
    }

    /// A drag in the air: sent when it begins, when its target changes and when it ends, never per hover.
    struct Dragging: Encodable {
        /// Names the drag among others (a digest of its session, which stays secret).
        var drag: String
        var user: String
        /// The dragged rows (none once it ended).
        var items: [String]
        /// "alice is moving “Card 7”" (nil once it ended).
        var words: String?
        var ended: Bool
    }

    /// A change as the board's activity tells it.
    struct Activity: Encodable {
        var version: Int
        var author: String
        var words: String
        /// ISO 8601, UTC.
        var at: String
    }

    /// `value` encoded as every JSON answer of the service is (``BoardService/json(_:)``); these
    /// shapes hold only strings, numbers and arrays of them, which always encode.
    static func json(_ value: some Encodable) -> String {
        (try? BoardService.json(value)) ?? "{}"
    }
}
