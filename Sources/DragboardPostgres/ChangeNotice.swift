import DragboardStore
/// What one committed change tells the other instances through `NOTIFY`: which board, at which
/// version, and who made it. Small on purpose (PostgreSQL caps a payload at 8,000 bytes): an
/// instance that hears of a change makes its viewers fetch the board as it is now.
struct ChangeNotice: Sendable, Equatable {
    static let channel = "dragboard_changes"

    /// The engine (one per server process) that committed the change.
    var instance: String
    var board: String
    var version: Int

    /// `version instance board`: board ids hold no spaces (`WireGrammar`), instance ids are UUIDs.
    var payload: String { "\(version) \(instance) \(board)" }

    init(instance: String, board: String, version: Int) {
        self.instance = instance
        self.board = board
        self.version = version
    }

    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let version = Int(parts[0]), !parts[2].isEmpty else { return nil }
        self.init(instance: String(parts[1]), board: String(parts[2]), version: version)
    }
}
