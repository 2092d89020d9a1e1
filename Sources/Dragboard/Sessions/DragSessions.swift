import DragAndDrop
import Foundation
import Synchronization

/// The live drag sessions, each a ``SessionEngine`` behind its own lock.
///
/// A session belongs to the browser that began it (its CSRF cookie): a token presented by
/// another browser is unknown. Sessions live until they end, or at most ``lifetime``.
public final class DragSessions: Sendable {
    /// One session.
    final class Entry: Sendable {
        let token: String
        let owner: String
        let engine: Mutex<SessionEngine>
        let started: ContinuousClock.Instant
        /// Data and files of a drop from outside; nil for drags that started in the app.
        let payload: DropPayload?

        init(token: String, owner: String, engine: SessionEngine, payload: DropPayload?) {
            self.token = token
            self.owner = owner
            self.engine = Mutex(engine)
            self.started = .now
            self.payload = payload
        }
    }

    private let entries = Mutex<[String: Entry]>([:])
    let lifetime: Duration

    public init(lifetime: Duration = .seconds(600)) {
        self.lifetime = lifetime
    }

    /// Stores a new session under the browser's token: 128 random bits as 32 lowercase hex
    /// digits, which survive as part of a DataTransfer type name.
    func insert(_ engine: SessionEngine, token: String, owner: String, payload: DropPayload? = nil) throws -> String {
        guard token.count == 32, token.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw DragboardError.badRequest("a session token is 32 lowercase hex digits")
        }
        let entry = Entry(token: token, owner: owner, engine: engine, payload: payload)
        let now = ContinuousClock.now
        try entries.withLock { entries in
            let expired = entries.values.filter { now - $0.started >= lifetime }
            expired.forEach { $0.payload?.discard() }
            entries = entries.filter { now - $0.value.started < lifetime }
            guard entries[token] == nil else { throw DragboardError.conflict("session token already in use") }
            entries[token] = entry
        }
        return token
    }

    /// The session for `token` if `owner` began it.
    func entry(_ token: String, owner: String) throws -> Entry {
        guard let entry = entries.withLock({ $0[token] }), entry.owner == owner, ContinuousClock.now - entry.started < lifetime else {
            throw DragboardError.notFound("unknown drag session")
        }
        return entry
    }

    func remove(_ token: String) {
        entries.withLock { $0.removeValue(forKey: token) }?.payload?.discard()
    }

    var count: Int { entries.withLock { $0.count } }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
