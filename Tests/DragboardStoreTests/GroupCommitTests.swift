import Dispatch
@testable import DragboardStore
import Foundation
import GRDB
import Synchronization
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// Operations that queue while a commit is under way share one durable transaction: on SQLite all
/// of them (one writer), each in its own savepoint; on PostgreSQL those of one board (its row lock).
/// On real SQLite files and a real PostgreSQL server, from many threads.
@Suite struct GroupCommitTests {
    private struct Failure: Error {}

    /// Starts an operation (renaming "d" to "Gate", in `finished`) that holds the writer until the
    /// returned semaphore is signalled: everything submitted meanwhile queues for the next batch.
    private func holdWriter(_ store: BoardStore, _ finished: DispatchGroup) -> DispatchSemaphore {
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        onOwnThread(finished) {
            _ = try? store.perform(operationID: "gate", fingerprint: "g") { tx in
                try tx.setTitle("d", "Gate")
                inside.signal()
                release.wait()
                return "gate"
            }
        }
        inside.wait()
        return release
    }

    /// Waits (a deadlock guard only) until `count` operations are queued behind the running batch.
    private func waitUntilQueued(_ store: BoardStore, _ count: Int) throws {
        let deadline = Date() + 120
        while store.queuedOperations < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        try #require(store.queuedOperations >= count, "\(count) operations never queued behind the writer")
    }

    @Test func concurrentOperationsLandExactlyOnceWithConsecutiveVersions() throws {
        let t = try TempStore()
        defer { t.remove() }
        let base = try t.store.version()
        let threads = 16, each = 12
        let results = Mutex<[String: Int]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<each {
                let id = "n\(thread)-\(number)"
                do {
                    let result = try t.store.perform(operationID: "op-\(id)", fingerprint: id) { tx in
                        _ = try tx.insert([NewItem(id: id, kind: "person", title: id, payload: "{}")], at: Placement(listID: "people"))
                        return id
                    }
                    results.withLock { $0[id] = result.version }
                } catch {
                    failures.withLock { $0.append("\(id): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let versions = results.withLock { $0 }
        // One version per operation, in one unbroken run after the base: none doubled, none skipped.
        #expect(versions.values.sorted() == Array((base + 1)...(base + threads * each)))
        #expect(try t.store.version() == base + threads * each)
        let rows = try t.ids("people")
        #expect(rows.count == 5 + threads * each)
        #expect(Set(rows).count == rows.count)
        // A retry of any of them is answered from its record: same response, same version, nothing run.
        for (id, version) in versions.prefix(20) {
            let replay = try t.store.perform(operationID: "op-\(id)", fingerprint: id) { _ in Issue.record("ran again"); return "" }
            #expect(replay.replayed && replay.response == id && replay.version == version)
        }
        #expect(try t.store.version() == base + threads * each)
    }

    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aBatchCommitsTogetherAndAFailingOperationRollsBackAlone(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let store = t.store
        let earlier = try store.perform(operationID: "earlier", fingerprint: "f") { tx in try tx.setTitle("e", "Earlier"); return "earlier answer" }
        let base = try store.version()
        let finished = DispatchGroup(), release = holdWriter(store, finished)
        let answers = Mutex<[String: Result<OperationResult, any Error>]>([:])
        func submit(_ name: String, _ work: @escaping @Sendable () throws -> OperationResult) {
            onOwnThread(finished) {
                let result = Result { try work() }
                answers.withLock { $0[name] = result }
            }
        }
        let titles = (1...5).map { "Title \($0)" }
        for title in titles {
            // Every one renames the same row; each answer is read at its own operation's state, and
            // formatted on the thread that submitted it (not the batch's committer, in its transaction).
            submit(title) {
                let submitter = pthread_self()
                return try store.perform(board: BoardStore.defaultBoardID, operationID: title, fingerprint: "f", stored: { $0 }, prepare: { _ in },
                                         committed: { tx, stored in
                    let (seen, version) = (try tx.item("a").title, tx.baseVersion)
                    return { "\(stored)|\(seen)|\(version)|\(pthread_equal(pthread_self(), submitter) != 0)" }
                }) { tx in
                    try tx.setTitle("a", title)
                    return title
                }
            }
        }
        submit("failing") {
            try store.perform(operationID: "failing", fingerprint: "f") { tx in
                try tx.setTitle("b", "Never")
                throw Failure()
            }
        }
        submit("replay") { try store.perform(operationID: "earlier", fingerprint: "f") { _ in "ran again" } }
        try waitUntilQueued(store, titles.count + 2)
        release.signal()
        #expect(finished.wait(timeout: .now() + 60) == .success)  // a deadlock guard only
        #expect(store.largestBatch >= titles.count + 2)

        let all = answers.withLock { $0 }
        // The failing operation threw, and only its own change rolled back.
        #expect(throws: Failure.self) { try all["failing"]?.get() }
        #expect(try store.read { try $0.item("b").title } == "B")
        #expect(try store.read { try $0.item("d").title } == "Gate")
        // The others committed, one version each, consecutive after the gate's.
        let renamed = try titles.map { try #require(all[$0]).get() }
        let replayed = try #require(all["replay"]).get()
        #expect(replayed.replayed && replayed.response == "earlier answer" && replayed.version == earlier.version)
        #expect(renamed.map(\.version).sorted() == Array((base + 2)...(base + 1 + titles.count)))
        #expect(try store.version() == base + 1 + titles.count)
        for (title, result) in zip(titles, renamed) {
            // Each answer says its own title at its own version, not the batch's last state.
            #expect(result.response == "\(title)|\(title)|\(result.version)|true")
        }
        let last = try #require(zip(titles, renamed).max { $0.1.version < $1.1.version })
        #expect(try store.read { try $0.item("a").title } == last.0)
    }

    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aReplayInsideABatchIsAnsweredFromItsRecord(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let store = t.store
        let first = try store.perform(operationID: "once", fingerprint: "f") { tx in try tx.setTitle("a", "Once"); return "first answer" }
        let finished = DispatchGroup(), release = holdWriter(store, finished)
        let answers = Mutex<[Result<OperationResult, any Error>]>([])
        for _ in 0..<3 {
            onOwnThread(finished) {
                let result = Result { try store.perform(operationID: "once", fingerprint: "f") { tx in try tx.setTitle("a", "Twice"); return "again" } }
                answers.withLock { $0.append(result) }
            }
        }
        onOwnThread(finished) {
            let result = Result { try store.perform(operationID: "once", fingerprint: "other") { _ in "reused" } }
            answers.withLock { $0.append(result) }
        }
        try waitUntilQueued(store, 4)
        release.signal()
        #expect(finished.wait(timeout: .now() + 60) == .success)  // a deadlock guard only
        let results = answers.withLock { $0 }
        let replays = results.compactMap { try? $0.get() }
        #expect(replays.count == 3)
        #expect(replays.allSatisfy { $0.replayed && $0.response == "first answer" && $0.version == first.version })
        // The same id with another request is refused, and refusing it harms no one else in the batch.
        #expect(results.filter { if case .failure(StoreError.operationReused) = $0 { true } else { false } }.count == 1)
        #expect(try store.read { try $0.item("a").title } == "Once")
        #expect(try store.version() == first.version + 1)
    }

    @Test(arguments: [TestEngine.sqlite, .postgres])
    func operationsCommittedInOneBatchKeepTheirOwnUndoOwners(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let store = t.store
        let finished = DispatchGroup(), release = holdWriter(store, finished)
        // Queued behind the gate: the first one's thread commits the next batch, the others included.
        let owners = ["first", "second", "third"]
        for (number, owner) in owners.enumerated() {
            onOwnThread(finished) {
                _ = try? store.perform(operationID: owner, fingerprint: "f") { tx in
                    tx.recordUndo(for: owner, actionName: "Rename to \(owner)")
                    try tx.setTitle(["a", "b", "c"][number], owner)
                    return owner
                }
            }
            try waitUntilQueued(store, number + 1)
        }
        release.signal()
        #expect(finished.wait(timeout: .now() + 60) == .success)  // a deadlock guard only
        #expect(store.largestBatch >= owners.count)
        for owner in owners {
            #expect(try store.undoState(owner: owner).undoActionName == "Rename to \(owner)")
        }
        if engine == .postgres {
            // One transaction wrote all three rows: PostgreSQL names the same writer for each.
            let writers = try store.engine.readOne { try $0.rows(sql: "SELECT COUNT(DISTINCT xmin::text) FROM item WHERE id IN ('a', 'b', 'c')", arguments: []) }
            #expect(writers.first?[0] as Int? == 1)
        }
    }
}

/// On PostgreSQL a batch that waited for its board's row while another instance held it takes
/// along what queued on its board meanwhile.
@Suite struct JoiningBatchTests {
    @Test func operationsQueuedWhileABatchWaitsForTheRowJoinIt() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let store = t.store, other = try BoardStore(database: t.path)
        let earlier = try store.perform(operationID: "earlier", fingerprint: "f") { tx in try tx.setTitle("e", "Earlier"); return "earlier answer" }
        let base = try store.version()
        // Another instance holds the row until released.
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchGroup()
        onOwnThread(finished) {
            try? other.engine.write { db in
                try db.lock(board: BoardStore.defaultBoardID, readingOperation: nil)
                held.signal()
                release.wait()
            }
        }
        held.wait()
        let answers = Mutex<[String: Result<OperationResult, any Error>]>([:])
        func submit(_ name: String, _ work: @escaping @Sendable () throws -> OperationResult) {
            onOwnThread(finished) {
                let result = Result { try work() }
                answers.withLock { $0[name] = result }
            }
        }
        submit("waits") { try store.perform(operationID: "waits", fingerprint: "f") { tx in try tx.move(["a"], to: Placement(listID: "links")); return "waits" } }
        // The first waits for the row in PostgreSQL (its lead is settled); these queue behind it here.
        let waiting = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        let deadline = Date() + 60
        while (try? store.engine.readOne({ try $0.fetchOne(Int.self, sql: waiting, arguments: []) })) ?? 0 == 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)  // a deadlock guard only
        }
        for (number, id) in ["b", "c", "replay"].enumerated() {
            submit(id) {
                guard id != "replay" else { return try store.perform(operationID: "earlier", fingerprint: "f") { _ in "ran again" } }
                return try store.perform(operationID: id, fingerprint: "f") { tx in try tx.move([id], to: Placement(listID: "links")); return id }
            }
            while store.queuedOperations <= number, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }  // a deadlock guard only
        }
        try #require(store.queuedOperations == 3)
        release.signal()
        #expect(finished.wait(timeout: .now() + 60) == .success)  // a deadlock guard only
        // One batch: the one that waited, and the three that joined it.
        #expect(store.largestBatch == 4)
        let all = answers.withLock { $0 }
        let moves = try ["waits", "b", "c"].map { try #require(all[$0]).get() }
        #expect(moves.map(\.version) == [base + 1, base + 2, base + 3])
        #expect(moves.map(\.response) == ["waits", "b", "c"])
        let replay = try #require(all["replay"]).get()
        #expect(replay.replayed && replay.response == "earlier answer" && replay.version == earlier.version)
        #expect(try t.ids("links") == ["l1", "l2", "a", "b", "c"])
        #expect(try store.version() == base + 3)
    }
}

extension BoardStore {
    /// The operations queued behind the batch being committed: SQLite's one queue, or the default
    /// board's on PostgreSQL.
    var queuedOperations: Int {
        (engine as? PostgresEngine)?.batches.queuedCount(lane: Self.defaultBoardID) ?? groupCommit.queuedCount
    }

    /// The most operations one batch held so far.
    var largestBatch: Int {
        (engine as? PostgresEngine).map { $0.batches.largestBatch.load(ordering: .relaxed) } ?? groupCommit.largestBatch
    }
}
