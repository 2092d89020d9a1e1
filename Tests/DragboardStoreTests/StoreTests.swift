@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard
@testable import DragboardPostgres

@Suite struct StoreTests {
    @Test func opensInWALWithFullSync() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let settings = try #require(try t.store.durabilitySettings())
        #expect(settings.journalMode == "wal")
        #expect(settings.synchronous == 2)  // FULL
        #expect(FileManager.default.fileExists(atPath: t.path + "-wal"))
    }

    @Test func seedsOnceAsVersionOne() throws {
        let t = try TempStore()
        defer { t.remove() }
        #expect(try t.store.version() == 1)
        try TempStore.seed(t.store)  // not empty any more: nothing happens
        #expect(try t.store.version() == 1)
        let snapshot = try t.store.snapshot()
        #expect(snapshot.lists.map(\.id) == ["people", "links", "boxes", "empty"])
        #expect(snapshot.rows(in: "people").map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(snapshot.contents(of: "box1").map(\.id) == ["t1", "t2"])
        #expect(snapshot.contents(of: "box1").allSatisfy { $0.listID == "boxes" })
        #expect(snapshot.rows(in: "boxes").map(\.id) == ["box1", "box2"])
    }

    @Test func moveWithinListUpdatesOnlyItsOwnRow() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.physicalRows()
        let result = try t.op { try $0.move(["b"], to: Placement(listID: "people", after: "d", before: "e")) }
        #expect(result.version == 2 && !result.replayed)
        #expect(try t.ids("people") == ["a", "c", "d", "b", "e"])
        let after = try t.physicalRows()
        #expect(after.count == before.count)
        #expect(after["b"]?.rowid == before["b"]?.rowid)  // same row, not delete + re-insert
        #expect(after["b"]?.pos != before["b"]?.pos)
        for (id, row) in before where id != "b" { #expect(after[id]?.pos == row.pos, "\(id) moved") }
        #expect(try t.store.items(["b"])[0].changedVersion == 2)
        #expect(try t.store.items(["a"])[0].changedVersion == 1)
    }

    @Test func moveAcrossListsUpdatesOnlyItsOwnRow() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.physicalRows()
        try t.op { try $0.move(["c"], to: Placement(listID: "links", after: "l1", before: "l2")) }
        #expect(try t.ids("people") == ["a", "b", "d", "e"])
        #expect(try t.ids("links") == ["l1", "c", "l2"])
        let after = try t.physicalRows()
        #expect(after.count == before.count)
        #expect(after["c"]?.rowid == before["c"]?.rowid)
        for (id, row) in before where id != "c" { #expect(after[id]?.pos == row.pos) }
        #expect(try t.store.items(["c"])[0].listID == "links")
        try t.op { try $0.move(["a"], to: Placement(listID: "empty", index: 0)) }
        #expect(try t.ids("empty") == ["a"])
    }

    @Test func severalItemsLandConsecutivelyInGivenOrder() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { try $0.move(["e", "a", "l2"], to: Placement(listID: "links", after: "l1")) }
        #expect(try t.ids("links") == ["l1", "e", "a", "l2"])
        #expect(try t.ids("people") == ["b", "c", "d"])
        // Neighbours that are themselves moving are skipped: "after c" where c moves too.
        try t.op { try $0.move(["d", "c"], to: Placement(listID: "people", after: "c", before: "d")) }
        #expect(try t.ids("people") == ["b", "d", "c"])
        try t.op { try $0.move(["b", "c"], to: Placement(listID: "people", index: 3)) }
        #expect(try t.ids("people") == ["d", "b", "c"])
    }

    @Test func staleNeighboursAreRebasedByID() throws {
        let t = try TempStore()
        defer { t.remove() }
        // Someone else moved "b" away; a client that saw [a b c d e] drops x after b, before c.
        try t.op { try $0.move(["b"], to: Placement(listID: "links", index: 0)) }
        try t.op { try $0.insert([NewItem(id: "x", kind: "person", title: "X")],
                                at: Placement(listID: "people", after: "b", before: "c", index: 2)) }
        #expect(try t.ids("people") == ["a", "x", "c", "d", "e"])
        // Both neighbours gone → the index (clamped) decides.
        try t.op { try $0.move(["c", "d"], to: Placement(listID: "links", index: 0)) }
        try t.op { try $0.move(["e"], to: Placement(listID: "people", after: "c", before: "d", index: 1)) }
        #expect(try t.ids("people") == ["a", "e", "x"])
        // Neighbours gone and no index → conflict, nothing changes.
        let version = try t.store.version()
        #expect(throws: StoreError.conflict("neighbours c/d are no longer in people")) {
            try t.op { try $0.move(["a"], to: Placement(listID: "people", after: "c", before: "d")) }
        }
        #expect(try t.store.version() == version)
    }

    @Test func errorsChangeNothing() throws {
        let t = try TempStore()
        defer { t.remove() }
        let rows = try t.physicalRows()
        let errors: [(StoreError, (BoardTransaction) throws -> Void)] = [
            (.indexOutOfRange(6, count: 5), { try $0.move(["a"], to: Placement(listID: "people", index: 6)) }),
            (.indexOutOfRange(-1, count: 5), { try $0.move(["a"], to: Placement(listID: "people", index: -1)) }),
            (.unknownList("nope"), { try $0.move(["a"], to: Placement(listID: "nope", index: 0)) }),
            (.unknownItem("zz"), { try $0.move(["a", "zz"], to: Placement(listID: "links", index: 0)) }),
            (.unknownItem("zz"), { try $0.delete(["a", "zz"]) }),
            (.unknownItem("zz"), { try $0.copy(["zz"], to: Placement(listID: "links")) }),
            (.invalid("cannot move box1 into itself"),
             { try $0.move(["box1"], to: Placement(listID: "boxes", containerID: "box1")) }),
            (.invalid("payload is not valid JSON"),
             { try $0.insert([NewItem(kind: "k", title: "T", payload: "{oops")], at: Placement(listID: "links")) }),
            // A failure after a successful step rolls back the whole operation.
            (.unknownList("nope"), {
                try $0.move(["a"], to: Placement(listID: "links", index: 0))
                try $0.delete(["b"])
                try $0.move(["c"], to: Placement(listID: "nope"))
            }),
        ]
        for (expected, body) in errors {
            #expect(throws: expected) { try t.op(body) }
            #expect(try t.store.version() == 1)
        }
        let after = try t.physicalRows()
        #expect(after.count == rows.count)
        for (id, row) in rows { #expect(after[id]?.pos == row.pos && after[id]?.rowid == row.rowid) }
        #expect(try t.ids("people") == ["a", "b", "c", "d", "e"])
        #expect(throws: StoreError.unknownItem("zz")) { try t.store.items(["a", "zz"]) }
        #expect(throws: StoreError.unknownList("nope")) { try t.store.rows(in: "nope") }
    }

    @Test func replayReturnsStoredResponseAndChangesNothing() throws {
        let t = try TempStore()
        defer { t.remove() }
        var runs = 0
        func drop() throws -> OperationResult {
            try t.store.perform(operationID: "op-1", fingerprint: "move b after d") { tx in
                runs += 1
                try tx.move(["b"], to: Placement(listID: "people", after: "d"))
                return #"{"moved":"b","version":\#(tx.newVersion)}"#
            }
        }
        let first = try drop()
        #expect(first == OperationResult(response: #"{"moved":"b","version":2}"#, version: 2, replayed: false))
        let rows = try t.physicalRows()
        let again = try drop()
        #expect(again == OperationResult(response: first.response, version: 2, replayed: true))
        #expect(runs == 1)
        #expect(try t.store.version() == 2)
        #expect(try t.physicalRows().mapValues(\.pos) == rows.mapValues(\.pos))
        // A later operation does not change what the replay answers.
        try t.op { try $0.move(["a"], to: Placement(listID: "links")) }
        #expect(try drop() == again)
    }

    @Test func reusedOperationIDWithOtherFingerprintIsRejected() throws {
        let t = try TempStore()
        defer { t.remove() }
        _ = try t.store.perform(operationID: "op-1", fingerprint: "A") { tx in try tx.setTitle("b", "Bea"); return "first" }
        #expect(throws: StoreError.operationReused("op-1")) {
            try t.store.perform(operationID: "op-1", fingerprint: "B") { tx in
                try tx.delete(["a"])
                return "second"
            }
        }
        #expect(try t.ids("people").contains("a"))
        // A failed operation stored nothing: its id may be retried.
        #expect(throws: StoreError.unknownItem("zz")) {
            try t.store.perform(operationID: "op-2", fingerprint: "A") { tx in try tx.delete(["zz"]); return "" }
        }
        let retry = try t.store.perform(operationID: "op-2", fingerprint: "A") { tx in try tx.delete(["a"]); return "" }
        #expect(!retry.replayed && retry.version == 3)
    }

    @Test func operationsThatChangeNothingAreNotRecorded() throws {
        let t = try TempStore()
        defer { t.remove() }
        let records = { try t.store.engine.read { try $0.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM operation") ?? -1 } }
        let idle = try t.store.perform(operationID: "noop", fingerprint: "A") { tx in
            try tx.move(["a"], to: Placement(listID: "people", index: 0))  // already first
            #expect(!tx.hasChanges && tx.resultingVersion == tx.baseVersion)
            return "nothing"
        }
        #expect(idle == OperationResult(response: "nothing", version: 1, replayed: false))
        #expect(try records() == 0)
        // Not remembered, so the same id runs again (and may now change something).
        let again = try t.store.perform(operationID: "noop", fingerprint: "B") { tx in try tx.setTitle("a", "Ann"); return "renamed" }
        #expect(again == OperationResult(response: "renamed", version: 2, replayed: false))
        #expect(try records() == 1)
    }

    @Test func recordsKeepTheStoredFormAndArePrunedAfterTheirRetention() throws {
        let t = try TempStore(seeded: false)
        defer { t.remove() }
        let path = t.path
        do {
            let store = try BoardStore(database: path)
            try TempStore.seed(store)
            let result = try store.perform(operationID: "op", fingerprint: BoardStore.fingerprint(of: Array("body".utf8)), stored: { "short:" + $0.prefix(3) }) { tx in
                try tx.setTitle("a", "Ann")
                return "long response"
            }
            #expect(result.response == "long response")
            let replay = try store.perform(operationID: "op", fingerprint: BoardStore.fingerprint(of: Array("body".utf8))) { _ in "x" }
            #expect(replay == OperationResult(response: "short:lon", version: 2, replayed: true))
            let fingerprint = try store.engine.read { try $0.fetchOne(String.self, sql: "SELECT fingerprint FROM operation") }
            #expect(fingerprint == "230d8358dc8e8890b4c58deeb62912ee2f20357ae92a5cc861b98e68fe31acb5")  // SHA-256 of "body"
        }
        // Reopened with a retention already over: the record is gone, the id is new again.
        let reopened = try BoardStore(database: path, operationRetention: -1)
        #expect(try reopened.engine.read { try $0.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM operation") } == 0)
    }

    @Test func versionGrowsByOnePerChangingOperationOnly() throws {
        let t = try TempStore()
        defer { t.remove() }
        var result = try t.op { tx in
            #expect(tx.baseVersion == 1 && tx.newVersion == 2)
            try tx.move(["a"], to: Placement(listID: "links", index: 0))
            try tx.move(["b"], to: Placement(listID: "links", index: 0))
            try tx.setTitle("c", "Charlie")
            try tx.insert([NewItem(kind: "person", title: "New")], at: Placement(listID: "people"))
        }
        #expect(try result.version == 2 && t.store.version() == 2)
        // No-ops: nothing read-only or idempotent bumps the version.
        result = try t.op { tx in
            _ = try tx.rows(in: "people")
            try tx.setTitle("c", "Charlie")
            try tx.move(["d"], to: Placement(listID: "people", after: "c", before: "e"))  // already there
            try tx.move(["l1", "l2"], to: Placement(listID: "links", index: 2))  // already in that order
        }
        #expect(try result.version == 2 && t.store.version() == 2)
        #expect(try t.ids("links") == ["b", "a", "l1", "l2"])
        result = try t.op { try $0.delete(["e"]) }
        #expect(result.version == 3)
        let changed = try t.store.changedSince(2)
        #expect(changed.isEmpty)  // the delete removed the only row it touched
        let since1 = try t.store.changedSince(1)
        #expect(since1.count == 4 && Set(since1.map(\.id)).isSuperset(of: ["a", "b", "c"]))
        #expect(since1.allSatisfy { $0.changedVersion == 2 })
    }

    @Test func copiesGetNewIDsAndCopyContainerContents() throws {
        let t = try TempStore()
        defer { t.remove() }
        var copies: [String] = []
        try t.op { tx in copies = try tx.copy(["box1", "a"], to: Placement(listID: "links", after: "l1")) }
        #expect(copies.count == 2 && !copies.contains("box1") && !copies.contains("a"))
        #expect(try t.ids("links") == ["l1"] + copies + ["l2"])
        #expect(try t.ids("boxes") == ["box1", "box2"])  // originals stay
        #expect(try t.ids("people").contains("a"))
        let snapshot = try t.store.snapshot()
        let boxCopy = try t.store.items([copies[0]])[0]
        #expect(boxCopy.kind == "box" && boxCopy.title == "BOX1" && boxCopy.listID == "links")
        let contents = snapshot.contents(of: copies[0])
        #expect(contents.map(\.title) == ["T1", "T2"])
        #expect(contents.allSatisfy { $0.listID == "links" && !["t1", "t2"].contains($0.id) })
        #expect(snapshot.contents(of: "box1").map(\.id) == ["t1", "t2"])
        #expect(try t.store.items([copies[1]])[0].payload == #"{"age":34}"#)
        // Copying a box into itself terminates and nests one copy.
        try t.op { tx in _ = try tx.copy(["box1"], to: Placement(listID: "boxes", containerID: "box1")) }
        #expect(try t.store.contents(of: "box1").count == 3)
    }

    @Test func itemsMovedIntoAContainerLeaveTheRows() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { try $0.move(["a", "l1"], to: Placement(listID: "boxes", containerID: "box1", before: "t1")) }
        let snapshot = try t.store.snapshot()
        #expect(snapshot.contents(of: "box1").map(\.id) == ["a", "l1", "t1", "t2"])
        #expect(snapshot.rows(in: "boxes").map(\.id) == ["box1", "box2"])
        #expect(!snapshot.rows(in: "people").contains { $0.id == "a" })
        #expect(try t.store.items(["a"])[0].containerID == "box1")
        // Moving the box to another list takes its contents along.
        try t.op { try $0.move(["box1"], to: Placement(listID: "people", index: 0)) }
        #expect(try t.store.contents(of: "box1").allSatisfy { $0.listID == "people" })
        #expect(try t.ids("people") == ["box1", "b", "c", "d", "e"])
        // And out again to the top level of a list.
        try t.op { try $0.move(["t2"], to: Placement(listID: "links", index: 1)) }
        #expect(try t.ids("links") == ["l2", "t2"])
        #expect(try t.store.contents(of: "box1").map(\.id) == ["a", "l1", "t1"])
        // Deleting the box deletes what is inside.
        try t.op { try $0.delete(["box1"]) }
        #expect(throws: StoreError.unknownItem("t1")) { try t.store.items(["t1"]) }
    }

    @Test func fiveThousandInsertsAtOneSpotStayShortThroughRebalancing() throws {
        let t = try TempStore()
        defer { t.remove() }
        var inserted: [String] = []
        // 500 operations of 10 single-row inserts each; 150 on PostgreSQL, whose client is slow in a debug
        // build (19 s for 5,000 inserts, the longest test of that run): 1,500 still fill the gap 11 times.
        let batches = t.store.engine is SQLiteEngine ? 500 : 150
        var rebalances = 0
        for batch in 0..<batches {
            _ = try t.store.perform(operationID: "batch-\(batch)", fingerprint: "") { tx in
                for i in 0..<10 {
                    let id = String(format: "n%04d", batch * 10 + i)
                    try tx.insert([NewItem(id: id, kind: "person", title: id)],
                                  at: Placement(listID: "people", after: "b", before: "c"))
                    inserted.append(id)
                }
                rebalances += tx.rebalancedRows.total > 0 ? 1 : 0
                return ""
            }
        }
        #expect(rebalances >= batches / 15)  // the gap filled up again and again (38 times in 500 operations)
        let rows = try t.store.rows(in: "people")
        #expect(rows.count == batches * 10 + 5)
        #expect(rows.map(\.id) == ["a", "b"] + inserted.reversed() + ["c", "d", "e"])
        #expect(rows.allSatisfy { $0.pos.utf8.count <= BoardStore.maxKeyLength })
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.pos.utf8.lexicographicallyPrecedes($1.pos.utf8) })
        #expect(try t.store.version() == batches + 1)
        // "e", away from the crowded gap, kept its key: a rebalance re-keys the gap's neighbourhood only.
        #expect(rows.last?.pos == "a4")
    }

    @Test func dataSurvivesClosingAndReopening() throws {
        let t = try TempStore(seeded: false, engine: .sqlite)
        defer { t.remove() }
        let path = t.directory.appendingPathComponent("reopen.sqlite").path
        let before: BoardSnapshot
        let result: OperationResult
        do {
            let store = try BoardStore(path: path)
            try TempStore.seed(store)
            _ = try store.perform(operationID: "m", fingerprint: "") { tx in
                try tx.move(["a"], to: Placement(listID: "links", after: "l2"))
                try tx.move(["l1"], to: Placement(listID: "boxes", containerID: "box1", index: 1))
                return ""
            }
            result = try store.perform(operationID: "kept", fingerprint: "F") { tx in
                try tx.setTitle("b", "Bea")
                return "R"
            }
            before = try store.snapshot()
        }  // the store (and its connection) is gone here
        let reopened = try BoardStore(path: path)
        let after = try reopened.snapshot()
        #expect(after.version == 3)
        #expect(after.lists == before.lists)
        for list in before.lists { #expect(after.rows(in: list.id) == before.rows(in: list.id)) }
        #expect(after.contents(of: "box1").map(\.id) == ["t1", "l1", "t2"])
        #expect(after.rows(in: "links").map(\.id) == ["l2", "a"])
        #expect(try reopened.items(["b"])[0].title == "Bea")
        let replay = try reopened.perform(operationID: "kept", fingerprint: "F") { _ in "other" }
        #expect(replay == OperationResult(response: "R", version: result.version, replayed: true))
        #expect(try reopened.durabilitySettings()?.synchronous == 2)
        #expect(try reopened.durabilitySettings()?.journalMode == "wal")
    }

    @Test func concurrentOperationsFromManyThreadsAreSerialised() throws {
        let t = try TempStore()
        defer { t.remove() }
        let store = t.store
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for n in 0..<25 {
                do {
                    _ = try store.perform(operationID: "w\(worker)-\(n)", fingerprint: "") { tx in
                        let rows = try tx.rows(in: "people")  // the last row moves to the top: always a change
                        try tx.move([rows[rows.count - 1].id], to: Placement(listID: "people", before: rows[0].id))
                        return ""
                    }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.count == 0)
        #expect(try store.version() == 1 + 8 * 25)
        #expect(try t.ids("people") == ["a", "b", "c", "d", "e"])  // 200 rotations of 5 rows
    }

    @Test func neighbourQueriesUseTheOrderIndex() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let plan = try t.store.dbPool.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT pos, id FROM item WHERE listID = ? AND containerID IS ?
                AND (pos, id) > (?, ?) ORDER BY pos, id LIMIT 1
                """, arguments: ["people", nil, "a0", "a"]).map { $0["detail"] as String }
        }
        // A range seek on the order index: O(log n), not a scan of the list.
        #expect(plan.contains { $0.contains("item_order") && $0.contains("(pos,id)>(?,?)") })
        #expect(!plan.contains { $0.contains("TEMP B-TREE") })
    }
}

/// Thread-safe failure counter for the concurrency test.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
