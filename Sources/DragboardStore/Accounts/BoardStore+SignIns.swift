import Dragboard
import Foundation
import Passwords

/// A signed-in browser: whose it is and the CSRF token its pages carry.
public struct SignIn: Sendable, Hashable {
    public var account: Account
    /// The token the browser's forms and requests echo (bound to this sign-in).
    public var csrf: String
    /// The digest of the sign-in's token: what the store keeps, and what live streams are tagged with.
    public var digest: String
}

/// Sign-ins: the database keeps a SHA-256 digest of each token, so a copy of it signs no one in.
extension BoardStore {
    /// Records a sign-in of `account` under `token` (256 random bits, made by the caller).
    public func startSignIn(_ account: Account, token: String, csrf: String) throws -> SignIn {
        let digest = Self.signInDigest(token)
        let now = Date().timeIntervalSince1970
        try engine.write { db in
            try db.execute(sql: "INSERT INTO signIn (digest, accountID, csrf, createdAt, lastSeen) VALUES (?, ?, ?, ?, ?)",
                           arguments: [digest, account.id, csrf, now, now])
        }
        return SignIn(account: account, csrf: csrf, digest: digest)
    }

    /// Where each of these sign-ins (by digest) still stands: missing when it ended; else whether
    /// its person is an admin and the boards they are a member of. How a server notices changes
    /// another process made (`dragboard users remove`, another instance's members page), to close
    /// the live streams of people who lost their place.
    public func standing(ofSignIns digests: Set<String>) throws -> [String: (isAdmin: Bool, boards: Set<String>)] {
        guard !digests.isEmpty else { return [:] }
        let list = Array(digests)
        return try engine.read { db in
            let rows = try db.rows(sql: """
                SELECT signIn.digest, account.id, account.isAdmin FROM signIn JOIN account ON account.id = signIn.accountID
                WHERE signIn.digest IN (\(list.map { _ in "?" }.joined(separator: ", ")))
                """, arguments: SQLArguments(list))
            let accounts = Set(rows.map { $0[1] as String })
            var boards: [String: Set<String>] = [:]
            if !accounts.isEmpty {
                let ids = Array(accounts)
                for row in try db.rows(sql: "SELECT accountID, boardID FROM member WHERE accountID IN (\(ids.map { _ in "?" }.joined(separator: ", ")))",
                                       arguments: SQLArguments(ids)) {
                    boards[row[0], default: []].insert(row[1])
                }
            }
            var standing: [String: (isAdmin: Bool, boards: Set<String>)] = [:]
            for row in rows { standing[row[0]] = ((row[2] as Int) != 0, boards[row[1]] ?? []) }
            return standing
        }
    }

    /// Ends a sign-in (signing out).
    public func endSignIn(token: String) throws {
        try changingAccess {
            try engine.write { try $0.execute(sql: "DELETE FROM signIn WHERE digest = ?", arguments: [Self.signInDigest(token)]) }
        }
    }

    /// Forgets sign-ins idle longer than `idleLimit`.
    public func pruneSignIns(idleLimit: TimeInterval) throws {
        try changingAccess {
            try engine.write { try $0.execute(sql: "DELETE FROM signIn WHERE lastSeen < ?", arguments: [Date().timeIntervalSince1970 - idleLimit]) }
        }
    }

    static func signInDigest(_ token: String) -> String {
        SHA256.hex(Array(token.utf8))
    }
}
