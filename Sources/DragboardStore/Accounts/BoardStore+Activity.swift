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
                """, arguments: [board, before ?? Int.max, limit]).map(Self.activity(_:))
        }
    }

    /// The activity entry of the change that took `board` to `version`, if that change has one (found
    /// from the newest backwards: it is asked for as the change is heard of).
    public func activity(board: String, version: Int) throws -> Activity? {
        try engine.readOne { db in
            try db.row(sql: """
                SELECT seq, boardID, version, author, words, createdAt FROM activity
                WHERE boardID = ? AND version = ? ORDER BY seq DESC LIMIT 1
                """, arguments: [board, version]).map(Self.activity(_:))
        }
    }

    private static func activity(_ row: SQLRow) -> Activity {
        Activity(seq: row[0], board: row[1], version: row[2], author: row[3], words: row[4], date: Date(timeIntervalSince1970: row[5]))
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
