import Dragboard
import Foundation
import Synchronization

/// Who a request's sign-in is and what they may do on a board: asked of every request, so read in
/// one query each, and answered from memory where the engine hears of every change to them
/// (``AccessWatch``, ``AccessMemory``).
extension BoardStore {
    /// A board's title and `account`'s role on it (an admin owns every board; nil: not a member,
    /// or nobody signs in); nil when there is no such board.
    public func access(of account: Account?, on board: String) throws -> (title: String, role: BoardRole?)? {
        let epoch = engine.accessWatch?.epoch
        let key = AccessMemory.accessKey(account: account, board: board)
        if let epoch, let known = accessMemory.withLock({ $0.access(key, at: epoch) }) { return (known.title, known.role) }
        let row = try engine.readOne { db in
            try db.row(sql: "SELECT title, (SELECT role FROM member WHERE boardID = ? AND accountID = ?) FROM board WHERE id = ?",
                       arguments: [board, account?.id ?? "", board])
        }
        guard let row else { return nil }
        let role = account.flatMap { $0.isAdmin ? .owner : (row[1] as String?).flatMap(BoardRole.init(rawValue:)) }
        if let epoch { accessMemory.withLock { $0.keep(.init(title: row[0], role: role), for: key, at: epoch) } }
        return (row[0], role)
    }

    /// The sign-in of `token`, unless it ended or was idle longer than `idleLimit`. Its last use
    /// is written at most once a minute: reads stay reads. Where the engine hears of sign-ins
    /// ending, a sign-in read less than a minute ago is answered from memory.
    public func signIn(token: String, idleLimit: TimeInterval) throws -> SignIn? {
        let digest = Self.signInDigest(token)
        let now = Date().timeIntervalSince1970
        let epoch = engine.accessWatch?.epoch
        if let epoch, let known = accessMemory.withLock({ $0.signIn(digest: digest, at: epoch) }),
           now - known.lastSeen <= min(Self.lastSeenInterval, idleLimit) {
            return known.signIn
        }
        let found = try engine.readOne { db in
            try db.row(sql: """
                SELECT account.id, account.name, account.isAdmin, signIn.csrf, signIn.lastSeen
                FROM signIn JOIN account ON account.id = signIn.accountID WHERE signIn.digest = ?
                """, arguments: [digest])
        }
        guard let found else { return nil }
        var lastSeen: Double = found[4]
        guard now - lastSeen <= idleLimit else {
            try endSignIn(token: token)
            return nil
        }
        if now - lastSeen > Self.lastSeenInterval {
            try engine.write { try $0.execute(sql: "UPDATE signIn SET lastSeen = ? WHERE digest = ?", arguments: [now, digest]) }
            lastSeen = now
        }
        let signIn = SignIn(account: Self.account(found), csrf: found[3], digest: digest)
        if let epoch { accessMemory.withLock { $0.keep(.init(signIn: signIn, lastSeen: lastSeen), digest: digest, at: epoch) } }
        return signIn
    }

    /// How often a sign-in's last use is written (seconds).
    static let lastSeenInterval: TimeInterval = 60

    /// Runs `body`, a change to who may do what, and then forgets what this process knew of it at
    /// once (other processes forget it when they hear of it).
    func changingAccess<T>(_ body: () throws -> T) rethrows -> T {
        defer { engine.accessWatch?.changed() }
        return try body()
    }
}
