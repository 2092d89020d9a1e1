import Dispatch
@testable import DragboardStore
import Foundation
import Glibc
import Logging
import Synchronization
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// Two stores on one database, as two server instances share one PostgreSQL database (run on
/// either engine: two SQLite pools on one file behave the same way): every operation lands once,
/// a board's versions form one sequence, a retry is answered whichever store receives it.
@Suite struct SharedDatabaseTests {
    @Test func operationsThroughTwoStoresLandOnceWithOneSequenceOfVersions() throws {
        let t = try TempStore()
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let stores = [t.store, other]
        let base = try t.store.version()
        let threads = 8, each = 10
        let versions = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<each {
                let id = "s\(thread)-\(number)"
                do {
                    // Alternate stores, and lists, so the two write the same lists at once.
                    let result = try stores[(thread + number) % 2].perform(operationID: "op-\(id)", fingerprint: id) { tx in
                        _ = try tx.insert([NewItem(id: id, kind: "person", title: id)], at: Placement(listID: number % 2 == 0 ? "people" : "empty", index: 0))
                        if number % 3 == 0 { try tx.move(["a"], to: Placement(listID: "links", index: 0)) }
                        return id
                    }
                    versions.withLock { $0.append(result.version) }
                } catch {
                    failures.withLock { $0.append("\(id): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(versions.withLock { $0 }.sorted() == Array((base + 1)...(base + threads * each)))
        for store in stores { #expect(try store.version() == base + threads * each) }
        let people = try t.store.rows(in: "people"), empty = try other.rows(in: "empty")
        #expect(people.count + empty.count == 4 + threads * each)  // `a` went to the links
        for rows in [people, empty] { #expect(Set(rows.map(\.pos)).count == rows.count) }
        #expect(try other.rows(in: "people").map(\.id) == people.map(\.id))
    }

    @Test func aRetryIsAnsweredFromTheRecordByTheOtherStore() throws {
        let t = try TempStore()
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let first = try t.store.perform(operationID: "retried-op", fingerprint: "f") { tx in
            try tx.move(["a"], to: Placement(listID: "links", index: 0))
            return "moved"
        }
        let retry = try other.perform(operationID: "retried-op", fingerprint: "f") { _ in
            Issue.record("the retry ran again")
            return ""
        }
        #expect(retry.replayed && retry.response == "moved" && retry.version == first.version)
        #expect(try other.version() == first.version)
    }

    @Test
    func everyChangeOfOneStoreReachesTheOtherInCommitOrder() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(other)
        var committed: [Int] = []
        for number in 0..<20 {
            committed.append(try t.op { try $0.setTitle("a", "A\(number)") }.version)
        }
        // Its own changes are not news to a store.
        _ = try other.perform(operationID: "own", fingerprint: "") { tx in try tx.setTitle("b", "Own"); return "" }
        #expect(heard.wait(until: committed[committed.count - 1]))
        #expect(heard.versions == committed)
    }

    /// A move across boards announces both: the board it lands on with the operation's bookkeeping
    /// (one statement), the board it left just before the `COMMIT`. An operation that fails
    /// announces nothing.
    @Test
    func aMoveAcrossBoardsIsHeardOnBothBoardsAndAFailedOneNowhere() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = Mutex<[String: [Int]]>([:])
        let arrival = DispatchSemaphore(value: 0)
        try other.observeOtherInstances { board, version in
            heard.withLock { $0[board, default: []].append(version) }
            arrival.signal()
        }
        try makeSecondBoard(t.store)
        #expect(throws: StoreError.self) {
            try t.store.perform(board: "b2", operationID: "fails", fingerprint: "f") { tx in
                try tx.move(["a"], to: Placement(listID: "ideas"))
                throw StoreError.invalid("changed its mind")
            }
        }
        let moved = try t.store.perform(board: "b2", operationID: "move", fingerprint: "m") { tx in
            try tx.move(["a"], to: Placement(listID: "ideas")); return "{}"
        }
        let demo = try #require(moved.departures.first).version
        let deadline = DispatchTime.now() + 30
        while heard.withLock({ $0["b2"]?.contains(moved.version) != true || $0[BoardStore.defaultBoardID]?.contains(demo) != true }) {
            guard arrival.wait(timeout: deadline) == .success else { break }
        }
        let versions = heard.withLock { $0 }
        #expect(versions["b2"]?.last == moved.version)
        #expect(versions[BoardStore.defaultBoardID] == [demo])
        #expect(try t.store.version(board: "b2") == moved.version)
    }

    /// A move that takes a row from another board reads it again once it holds that board: what it
    /// read before may have changed meanwhile (another instance deleted it, here), and then the move
    /// is refused, not told that it moved a row that is gone.
    @Test
    func aRowTakenFromAnotherBoardIsReadAgainOnceThatBoardIsHeld() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        try makeSecondBoard(t.store)
        #expect(throws: StoreError.unknownItem("a")) {
            try t.store.perform(board: "b2", operationID: "take", fingerprint: "t") { tx in
                _ = try tx.item("a")  // read before the board it is on is held
                _ = try other.perform(operationID: "delete", fingerprint: "d") { tx in try tx.delete(["a"]); return "{}" }
                try tx.move(["a"], to: Placement(listID: "ideas"))
                return "{}"
            }
        }
        #expect(try t.store.read(board: "b2") { tx in try tx.rowCount(in: "ideas") } == 0)
    }

    /// An announcement made in a savepoint that rolls back is not sent: notices of one transaction
    /// arrive in order, so the one made after it arrives alone.
    @Test
    func anAnnouncementRolledBackWithItsSavepointIsNotSent() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(other)
        struct ChangedItsMind: Error {}
        try t.store.engine.write { db in
            _ = try? db.inSavepoint { try db.announce(board: BoardStore.defaultBoardID, version: 999); throw ChangedItsMind() }
            try db.announce(board: BoardStore.defaultBoardID, version: 1_000)
        }
        #expect(heard.wait(until: 1_000))
        #expect(heard.versions == [1_000])
    }

    @Test
    func aListenerThatLostItsConnectionReconnectsAndCatchesUp() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let heard = try HeardVersions(other)
        // The server ends the listening session (as a restart or a network cut would), and a change
        // commits before the listener is back: PostgreSQL keeps no notice for it.
        let ended = try t.store.engine.write { db in
            try db.fetchAll(Bool.self, sql: """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND query LIKE 'LISTEN%'
                """)
        }
        #expect(ended == [true])
        let version = try t.op { try $0.setTitle("a", "Missed") }.version
        #expect(heard.wait(until: version))
        #expect(heard.versions.last == version)
    }

    @Test
    func connectionsTheServerClosedAreReplacedWithoutAFailedRequest() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        // Three connections at once, which the pool keeps afterwards.
        let inside = DispatchGroup(), done = DispatchGroup(), release = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            inside.enter()
            done.enter()
            onOwnThread {
                _ = try? t.store.engine.read { _ in inside.leave(); release.wait() }
                done.leave()
            }
        }
        inside.wait()
        for _ in 0..<3 { release.signal() }
        done.wait()
        // The server ends them all (as a restart or a failover would), through a session of its own.
        let url = try #require(try PostgresURL.parse(t.path))
        let admin = try PostgresEngine.administration(of: url)
        let ended = try admin.withConnection { pooled in
            try PostgresSQLConnection(pooled, dialect: PostgresDialect(), logger: Logger(label: "test")).rows(sql: """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()
                """, arguments: [url.database]).count
        }
        admin.close()
        #expect(ended == 3)
        for number in 0..<4 {
            #expect(try t.op { try $0.setTitle("a", "After \(number)") }.version > 1)
            #expect(try t.store.items(["a"])[0].title == "After \(number)")
        }
    }

    /// A server that stops answering mid-session (its backend frozen with SIGSTOP, as a hung host or
    /// a lost network would leave it) fails the request as unavailable (503) once the deadline has
    /// passed, instead of holding the thread forever; the connection is dropped, not lent again.
    @Test
    func aConnectionThatStopsAnsweringFailsItsRequestAtTheDeadline() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let url = try #require(try PostgresURL.parse(t.path))
        let store = try BoardStore(engine: PostgresEngine(url: url, answerDeadline: .milliseconds(500)), operationRetention: 3600)
        let backend = { try store.engine.read { try $0.fetchOne(Int.self, sql: "SELECT pg_backend_pid()") } }
        let frozen = try #require(try backend())
        #expect(kill(pid_t(frozen), SIGSTOP) == 0)
        defer { kill(pid_t(frozen), SIGCONT) }
        do {
            _ = try store.version()
            Issue.record("an answer from a frozen backend")
        } catch StoreError.unavailable(let message) {
            #expect(message.contains("no answer within 500 ms"))
        }
        kill(pid_t(frozen), SIGCONT)
        #expect(try backend() != frozen)
        #expect(try store.version() == 1)
    }
}

/// The pieces of the PostgreSQL engine that need no server.
/// The default board's versions a store hears other stores commit, in the order it hears them.
final class HeardVersions: Sendable {
    private let heard = Mutex<[Int]>([])
    private let arrival = DispatchSemaphore(value: 0)

    init(_ store: BoardStore) throws {
        try store.observeOtherInstances { [self] board, version in
            guard board == BoardStore.defaultBoardID else { return }
            heard.withLock { $0.append(version) }
            arrival.signal()
        }
    }

    var versions: [Int] { heard.withLock { $0 } }

    /// Waits (30 s at most, a deadlock guard) until a version from `version` on was heard.
    func wait(until version: Int) -> Bool {
        let deadline = DispatchTime.now() + 30
        while !versions.contains(where: { $0 >= version }) {
            guard arrival.wait(timeout: deadline) == .success else { return false }
        }
        return true
    }
}

extension SharedDatabaseTests {
    /// Board "b2" with one empty list, "ideas": somewhere to move the default board's rows to.
    func makeSecondBoard(_ store: BoardStore) throws {
        _ = try store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0)); return "{}"
        }
    }
}
