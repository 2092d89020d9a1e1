import Dragboard
import Foundation

/// What a transaction's change will be told as in the board's activity.
final class ActivityNote {
    var entry: (author: String, words: String)?
}

extension BoardTransaction {
    /// Records who made this operation's change and what it did in words, kept with the change
    /// when it commits (nothing when the operation changes nothing).
    public func recordActivity(by author: String, _ words: String) {
        activityNote.entry = (author, words)
    }
}

extension BoardStore {
    /// A board's activity, newest first: at most `limit` entries older than `before` (a `seq`),
    /// or the newest when nil.
    public func activity(board: String, before: Int? = nil, limit: Int = 50) throws -> [Activity] {
        try engine.read { db in
            try db.rows(sql: """
                SELECT seq, boardID, version, author, words, createdAt FROM activity
                WHERE boardID = ? AND seq < ? ORDER BY seq DESC LIMIT ?
                """, arguments: [board, before ?? Int.max, limit]).map {
                Activity(seq: $0[0], board: $0[1], version: $0[2], author: $0[3], words: $0[4], date: Date(timeIntervalSince1970: $0[5]))
            }
        }
    }
}

extension BoardTransaction {
    /// Who deleted the card titled `title` from this board, by its activity (the newest such entry of
    /// the last 100), or nil when nobody signed in did.
    package func deleter(ofItemTitled title: String) throws -> String? {
        let recent = try db.rows(sql: "SELECT author, words FROM activity WHERE boardID = ? ORDER BY seq DESC LIMIT 100", arguments: [boardID])
        for row in recent {
            let (author, words): (String, String) = (row[0], row[1])
            if author != Activity.someone, words == Activity.words(of: author, "Deleted \(title).") { return author }
        }
        return nil
    }
}
