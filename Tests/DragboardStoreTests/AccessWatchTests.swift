@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// A server that hears of every change to who may do what (PostgreSQL, listening) answers "no
/// accounts yet", a request's sign-in and a person's role from memory, and forgets each answer as
/// soon as it hears of a change: at once for its own changes, on the notice for another's.
@Suite struct AccessWatchTests {
    static let triggers = ["account_changed ON account", "signin_ended ON signIn", "member_changed ON member"]

    /// Runs `body` on `store`'s database with the announcements off: what memory cannot see.
    func unannounced(on store: BoardStore, _ body: (any SQLConnection) throws -> Void) throws {
        try store.engine.write { db in
            for trigger in Self.triggers { try db.execute(sql: "ALTER TABLE \(trigger.split(separator: " ")[2]) DISABLE TRIGGER \(trigger.split(separator: " ")[0])") }
            try body(db)
            for trigger in Self.triggers { try db.execute(sql: "ALTER TABLE \(trigger.split(separator: " ")[2]) ENABLE TRIGGER \(trigger.split(separator: " ")[0])") }
        }
    }

    func addQuietAccount(on store: BoardStore) throws {
        try unannounced(on: store) { db in
            try db.execute(sql: "INSERT INTO account (id, name, nameKey, passwordHash, isAdmin, createdAt) VALUES ('q', 'quiet', 'quiet', 'x', 0, 0)")
        }
    }

    /// A change of `other`'s that `heard`'s store hears of: notices arrive in commit order, so once it
    /// is heard, so is every change committed before it.
    func changeHeard(_ other: BoardStore, _ heard: HeardVersions, _ name: String) throws -> Bool {
        let version = try other.perform(operationID: name, fingerprint: "") { tx in try tx.setTitle("a", name); return "" }.version
        return heard.wait(until: version)
    }

    @Test func aServerWithNoAccountsClosesWhenItHearsOfTheFirst() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(t.store)
        #expect(try !t.store.hasAccounts())
        try addQuietAccount(on: other)
        #expect(try !t.store.hasAccounts())  // remembered
        try other.engine.write { try $0.execute(sql: "DELETE FROM account") }

        try other.addAccount(name: "ada", passwordHash: "x", isAdmin: true)
        #expect(try changeHeard(other, heard, "after"))
        #expect(try t.store.hasAccounts())
    }

    @Test func aSignInAndARoleAreRememberedUntilAChangeIsHeard() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(t.store)
        let ada = try t.store.addAccount(name: "ada", passwordHash: "x")
        try t.store.addAccount(name: "bob", passwordHash: "x")
        try t.store.setMember(named: "bob", role: .owner, on: BoardStore.defaultBoardID)
        try t.store.setMember(named: "ada", role: .editor, on: BoardStore.defaultBoardID)
        // The notices of these changes reach the listener after their commits, and each one heard
        // forgets what was remembered: wait until they are all heard (notices come in commit order).
        #expect(try changeHeard(other, heard, "settled"))
        _ = try t.store.startSignIn(ada, token: "token-1", csrf: "c1")
        _ = try t.store.startSignIn(ada, token: "token-2", csrf: "c2")
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600)?.account == ada)
        #expect(try t.store.access(of: ada, on: BoardStore.defaultBoardID)?.role == .editor)

        // Remembered: a change the database does not announce is not seen.
        try unannounced(on: other) { db in
            try db.execute(sql: "DELETE FROM signIn")
            try db.execute(sql: "UPDATE member SET role = 'viewer' WHERE accountID = ?", arguments: [ada.id])
        }
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600)?.csrf == "c1")
        #expect(try t.store.access(of: ada, on: BoardStore.defaultBoardID)?.role == .editor)
        #expect(try t.store.signIn(token: "token-2", idleLimit: 3600) == nil)  // never read: asked

        // Another instance's change, once heard, is seen.
        try other.setMember(named: "ada", role: .owner, on: BoardStore.defaultBoardID)
        #expect(try changeHeard(other, heard, "promoted"))
        #expect(try t.store.access(of: ada, on: BoardStore.defaultBoardID)?.role == .owner)
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600) == nil)

        // Its own changes: at once.
        _ = try t.store.startSignIn(ada, token: "token-3", csrf: "c3")
        #expect(try t.store.signIn(token: "token-3", idleLimit: 3600) != nil)
        try t.store.endSignIn(token: "token-3")
        #expect(try t.store.signIn(token: "token-3", idleLimit: 3600) == nil)
        #expect(try t.store.access(of: ada, on: BoardStore.defaultBoardID)?.role == .owner)
        try t.store.setMember(named: "ada", role: .viewer, on: BoardStore.defaultBoardID)
        #expect(try t.store.access(of: ada, on: BoardStore.defaultBoardID)?.role == .viewer)
        // An idle sign-in is never answered from memory.
        _ = try t.store.startSignIn(ada, token: "token-4", csrf: "c4")
        #expect(try t.store.signIn(token: "token-4", idleLimit: 3600) != nil)
        #expect(try t.store.signIn(token: "token-4", idleLimit: -1) == nil)
    }

    /// While the listener is away, notices may be lost: the database is asked again.
    @Test func aServerThatStoppedListeningAsksAgain() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(t.store)
        #expect(try !t.store.hasAccounts())
        let ended = try other.engine.write { db in
            try db.fetchAll(Bool.self, sql: """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND query LIKE 'LISTEN%'
                """)
        }
        #expect(ended == [true])
        try addQuietAccount(on: other)
        // The listener is back once it delivered the boards' versions (its catch-up) or this change.
        #expect(try changeHeard(other, heard, "after"))
        #expect(try t.store.hasAccounts())
    }

    /// A store that does not listen (a command, a test) asks every time.
    @Test func aStoreThatDoesNotListenAsksEveryTime() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let ada = try other.addAccount(name: "ada", passwordHash: "x")
        _ = try other.startSignIn(ada, token: "token-1", csrf: "c1")
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600) != nil)
        try unannounced(on: other) { try $0.execute(sql: "DELETE FROM signIn") }
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600) == nil)
    }
}
