import Dispatch
@testable import DragboardStore
import Foundation
import GRDB
import Synchronization
import Testing
@testable import Dragboard

/// The store as a pool: counts kept by triggers, readers beside the writer, rendering after the commit.
@Suite struct StoreConcurrencyTests {
    /// Every count the drop targets read, against the rows themselves.
    private func expectCountsMatchRows(_ t: TempStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try t.store.read { tx in
            for list in try tx.lists() {
                let rows = try tx.rows(in: list.id)
                #expect(try tx.rowCount(in: list.id) == rows.count, "list \(list.id)", sourceLocation: sourceLocation)
                for row in rows {
                    #expect(try tx.rowCount(list.id, row.id) == (try tx.rows(in: list.id, container: row.id)).count,
                            "container \(row.id)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test func rowCountsFollowEveryKindOfChange() throws {
        let t = try TempStore()
        defer { t.remove() }
        try expectCountsMatchRows(t)
        try t.op { _ = try $0.insert([NewItem(id: "f", kind: "person", title: "F", payload: "{}")], at: Placement(listID: "people", index: 2)) }
        try t.op { try $0.move(["a", "l1"], to: Placement(listID: "boxes", containerID: "box1", before: "t1")) }
        try expectCountsMatchRows(t)
        // A box moving to another list takes its contents along (their list changes, not their container).
        try t.op { try $0.move(["box1"], to: Placement(listID: "people", index: 0)) }
        #expect(try t.store.read { try $0.rowCount("people", "box1") } == 4)
        try t.op { _ = try $0.copy(["box1", "b"], to: Placement(listID: "empty", index: 0)) }
        try expectCountsMatchRows(t)
        try t.op { try $0.move(["t2"], to: Placement(listID: "links", index: 1)) }
        // Deleting a box deletes its contents through the foreign key cascade.
        try t.op { try $0.delete(["box1", "c"]) }
        try expectCountsMatchRows(t)
        try t.op { try $0.deleteList("empty") }
        try t.op { _ = try $0.addList(ListRecord(id: "empty", title: "Empty again", kind: "people", position: 9)) }
        #expect(try t.store.read { try $0.rowCount(in: "empty") } == 0)
        try expectCountsMatchRows(t)
    }

    @Test func readsDoNotWaitForAnOpenWriteTransaction() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.store.version()
        let seen = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        try t.op { tx in
            try tx.setTitle("a", "Renamed")
            // A read from another thread while this transaction is open: it answers the last
            // committed state at once (a queue would make it wait for this very transaction).
            onOwnThread {
                seen.withLock { $0 = try? t.store.version() }
                done.signal()
            }
            // A deadlock guard only: a serialised store never answers, so the test fails instead of hanging.
            #expect(done.wait(timeout: .now() + 30) == .success)
        }
        #expect(seen.withLock { $0 } == before)
        #expect(try t.store.version() == before + 1)
    }

    @Test func anAnswerIsReadAtItsCommitAndFormattedWhileTheWriterMovesOn() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let store = t.store
        let result = try store.perform(board: BoardStore.defaultBoardID, operationID: "first", fingerprint: "f", stored: { $0 }, prepare: { _ in },
                                       committed: { tx, stored in
            // Read in the operation's transaction...
            let (title, version) = (try tx.item("a").title, tx.baseVersion)
            return {
                // ...and formatted after its commit: the next operation commits meanwhile.
                let next = DispatchSemaphore(value: 0)
                onOwnThread {
                    _ = try? store.perform(operationID: "second", fingerprint: "f") { tx in try tx.setTitle("a", "Second"); return "" }
                    next.signal()
                }
                let committed = next.wait(timeout: .now() + 30) == .success  // a deadlock guard only
                return "\(stored) \(title) v\(version) \(committed)"
            }
        }) { tx in
            try tx.setTitle("a", "First")
            return "renamed"
        }
        #expect(result.response == "renamed First v\(result.version) true")
        #expect(try store.items(["a"])[0].title == "Second")
        // A replay renders again from the record, as things are now.
        let replay = try store.perform(board: BoardStore.defaultBoardID, operationID: "first", fingerprint: "f", stored: { $0 }, prepare: { _ in },
                                       committed: { tx, stored in
            let title = try tx.item("a").title
            return { "\(stored) \(title)" }
        }) { _ in "not run" }
        #expect(replay.replayed && replay.response == "renamed Second")
    }
}
