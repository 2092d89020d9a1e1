import DragAndDrop
import Foundation
import Synchronization

/// The live drag sessions, each a ``SessionEngine`` behind its own lock.
///
/// A session belongs to the browser that began it (its CSRF cookie): a token presented by
/// another browser is unknown. Sessions live until they end, or at most ``lifetime``; how many
/// may live at once is capped per browser, per address and in total, since each holds memory.
public final class DragSessions: Sendable {
    /// One session.
    package final class Entry: Sendable {
        let token: String
        let owner: String
        /// The network address that began it, when known.
        let address: String?
        /// The signed-in person who began it, when accounts exist.
        let user: String?
        package let engine: Mutex<SessionEngine>
        let started: ContinuousClock.Instant
        /// Data and files of a drop from outside; nil for drags that started in the app.
        package let payload: DropPayload?
        /// The board of the window the session began in.
        package let board: String
        /// Whether the session drags lists by their headers (its only target is the board).
        package let movesLists: Bool
        /// The board of the window the drag is over now: another window of the app, on another
        /// board, joins the session and its lists become the targets.
        package let dropBoard: Mutex<String>
        /// The newest version of ``board`` the session knows: the one it started from, then the
        /// one its drop left (made in any window). Its end answers this, so the page it began in
        /// catches up with a drop another window took; other people's changes reach that page
        /// through its live updates, in order, without a read at every drag's end.
        package let reached: Mutex<Int>

        init(token: String, owner: String, address: String?, user: String?, engine: SessionEngine, payload: DropPayload?, board: String, movesLists: Bool,
             version: Int) {
            self.token = token
            self.owner = owner
            self.user = user
            self.board = board
            self.movesLists = movesLists
            self.dropBoard = Mutex(board)
            self.reached = Mutex(version)
            self.address = address
            self.engine = Mutex(engine)
            self.started = .now
            self.payload = payload
        }
    }

    private let entries = Mutex<[String: Entry]>([:])
    let lifetime: Duration
    let limits: BoardLimits
    /// The bytes uploaded files of drags in progress hold.
    public let uploads: UploadBudget

    package init(lifetime: Duration = .seconds(600), limits: BoardLimits = .init()) {
        self.lifetime = lifetime
        self.limits = limits
        uploads = UploadBudget(limits: limits)
    }

    /// Stores a new session under the browser's token: 128 random bits as 32 lowercase hex
    /// digits, which survive as part of a DataTransfer type name. `version`: the version of
    /// `board` the drag starts from.
    package func insert(_ engine: SessionEngine, token: String, owner: String, address: String? = nil, user: String? = nil, payload: DropPayload? = nil,
                board: String = BoardRecord.defaultID, version: Int, movesLists: Bool = false) throws -> String {
        guard Self.isWellFormed(token) else {
            throw DragboardError.badRequest("a session token is 32 lowercase hex digits")
        }
        let entry = Entry(token: token, owner: owner, address: address, user: user, engine: engine, payload: payload, board: board, movesLists: movesLists,
                          version: version)
        let now = ContinuousClock.now
        removeExpired(now: now)
        try entries.withLock { entries in
            guard entries[token] == nil else { throw DragboardError.conflict("session token already in use") }
            try checkLimits(entries.values, owner: owner, address: address, user: user)
            entries[token] = entry
        }
        return token
    }

    /// Refuses a new session over a cap, naming the cap; unfinished drags end on `dragend`, so
    /// a browser reaching its cap has sessions it never ended.
    private func checkLimits(_ live: Dictionary<String, Entry>.Values, owner: String, address: String?, user: String?) throws {
        let now = ContinuousClock.now
        guard live.count < limits.sessions else {
            let wait = retryAfter(live, now: now)
            throw DragboardError.tooMany("the server has \(limits.sessions) drags in progress, its limit; one ends \(Self.within(wait))", retryAfter: wait)
        }
        let mine = live.filter { $0.owner == owner }
        guard mine.count < limits.sessionsPerClient else {
            let wait = retryAfter(mine, now: now)
            throw DragboardError.tooMany("this browser has \(limits.sessionsPerClient) unfinished drags, the limit; the oldest ends \(Self.within(wait))",
                                         retryAfter: wait)
        }
        if let user {
            let theirs = live.filter { $0.user == user }
            if theirs.count >= limits.sessionsPerUser {
                let wait = retryAfter(theirs, now: now)
                throw DragboardError.tooMany("your account has \(limits.sessionsPerUser) unfinished drags, the limit; the oldest ends \(Self.within(wait))",
                                             retryAfter: wait)
            }
        }
        if let address {
            let fromAddress = live.filter { $0.address == address }
            if live.count >= limits.sessions - limits.sessionReserve, fromAddress.count >= BoardLimits.lightSessionUse {
                let wait = retryAfter(fromAddress, now: now)
                throw DragboardError.tooMany("the server is nearly at its limit of drags in progress, so for now an address keeps at most \(BoardLimits.lightSessionUse) unfinished; the oldest ends \(Self.within(wait))",
                                             retryAfter: wait)
            }
            if fromAddress.count >= limits.sessionsPerAddress {
                let wait = retryAfter(fromAddress, now: now)
                throw DragboardError.tooMany("your network address has \(limits.sessionsPerAddress) unfinished drags, the limit; the oldest ends \(Self.within(wait))",
                                             retryAfter: wait)
            }
        }
    }

    /// Seconds until the oldest of `entries` expires (at least 1): when a new session fits again at the latest.
    private func retryAfter(_ entries: some Collection<Entry>, now: ContinuousClock.Instant) -> Int {
        guard let oldest = entries.map(\.started).min() else { return 1 }
        let left = lifetime - (now - oldest)
        return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
    }

    /// "within 3 minutes", "within 40 seconds".
    static func within(_ seconds: Int) -> String {
        seconds > 90 ? "within \((seconds + 59) / 60) minutes" : "within \(seconds) seconds"
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The session for `token` if `owner` began it.
    package func entry(_ token: String, owner: String) throws -> Entry {
        guard let entry = entries.withLock({ $0[token] }), entry.owner == owner, ContinuousClock.now - entry.started < lifetime else {
            throw DragboardError.notFound("unknown drag session")
        }
        return entry
    }

    package func remove(_ token: String) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: token) }) else { return }
        entry.payload?.discard()
        uploads.releaseDrag(token, address: entry.address)
    }

    /// Ends the sessions past their lifetime, deleting the files uploaded for them and giving their
    /// bytes back (run on every insert and by the service's sweep, so an abandoned drag's files go
    /// when it expires, not at the next drag).
    package func removeExpired(now: ContinuousClock.Instant = .now) {
        let expired = entries.withLock { entries -> [Entry] in
            let expired = entries.values.filter { now - $0.started >= lifetime }
            for entry in expired { entries.removeValue(forKey: entry.token) }
            return expired
        }
        for entry in expired {
            entry.payload?.discard()
            uploads.releaseDrag(entry.token, address: entry.address)
        }
    }

    /// Reserves `bytes` of files for the drag of `entry`, before any is stored (see ``UploadBudget``).
    package func reserveUpload(_ bytes: Int, for entry: Entry) throws {
        let now = ContinuousClock.now
        let wait = entries.withLock { entries in
            retryAfter(entries.values.filter { $0.address == entry.address }, now: now)
        }
        try uploads.reserve(bytes, drag: entry.token, address: entry.address, retryAfter: wait)
        // The drag may have ended meanwhile, its bytes given back: a reservation made after that would never be.
        guard entries.withLock({ $0[entry.token] === entry }) else {
            uploads.releaseDrag(entry.token, address: entry.address)
            throw DragboardError.notFound("unknown drag session")
        }
    }

    /// Gives back `bytes` reserved for the drag of `entry`.
    package func releaseUpload(_ bytes: Int, for entry: Entry) {
        uploads.release(bytes, drag: entry.token, address: entry.address)
    }

    package var count: Int { entries.withLock { $0.count } }

    package static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }
}
