@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard

/// A row found by id gives the rows beside it without counting again, and the answer is the one
/// counting would give.
@Suite struct PositionTests {
    @Test func rowsBesideACountedRowAreTheRowsAtThoseIndexes() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { tx in _ = try tx.insert((0..<20).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "people", index: 2)) }
        let ids = try t.ids("people")
        for (index, id) in ids.enumerated() {
            try t.store.read { (tx: BoardTransaction) throws -> Void in
                let gap = Gap(listID: "people", containerID: nil)
                #expect(try tx.index(of: id, in: "people") == index)
                for probe in [index - 1, index, index + 1] where probe >= 0 {
                    #expect(try tx.rowBound(at: probe, in: gap)?.id == (probe < ids.count ? ids[probe] : nil), "row \(probe) beside \(id)")
                }
            }
        }
        // Inside a container too, and a write in between makes the transaction count again.
        try t.op { tx in
            let gap = Gap(listID: "boxes", containerID: "box1")
            #expect(try tx.index(of: "t2", inContainer: "box1") == 1)
            #expect(try tx.rowBound(at: 0, in: gap)?.id == "t1")
            #expect(try tx.rowBound(at: 2, in: gap) == nil)
            try tx.move(["t1"], to: Placement(listID: "boxes", containerID: "box1"))
            #expect(try tx.rowBound(at: 1, in: gap)?.id == "t1")
            #expect(try tx.rowBound(at: 0, in: gap)?.id == "t2")
        }
    }

    /// Past 64 rows an index is counted from the end its key is nearer to, and a row is found by
    /// index from the nearer end: the answers are the rows' places whatever shape the keys have
    /// (spread in one insert, crowded into one gap, appended), in a list and in a container.
    @Test func longScopesAreCountedFromTheNearerEndWithTheSameAnswers() throws {
        let t = try TempStore()
        defer { t.remove() }
        func people(_ prefix: String, _ count: Int) -> [NewItem] {
            (0..<count).map { NewItem(id: "\(prefix)\($0)", kind: "person", title: "P") }
        }
        try t.op { tx in _ = try tx.insert(people("spread", 120), at: Placement(listID: "people", index: 5)) }
        for n in 0..<40 {  // one gap near the front: ever longer keys
            try t.op { tx in _ = try tx.insert(people("crowd\(n)-", 1), at: Placement(listID: "people", index: 3)) }
        }
        for n in 0..<30 {
            try t.op { tx in _ = try tx.insert(people("end\(n)-", 1), at: Placement(listID: "people")) }
        }
        try t.op { tx in _ = try tx.insert(people("toy", 80), at: Placement(listID: "boxes", containerID: "box2")) }

        let rows = try t.ids("people")
        #expect(rows.count == 195)
        let toys = try t.store.snapshot().contents(of: "box2").map(\.id)
        #expect(toys.count == 80)
        for (scope, ids) in [(nil as String?, rows), ("box2", toys)] {
            let gap = Gap(listID: scope == nil ? "people" : "boxes", containerID: scope)
            for (index, id) in ids.enumerated() {
                try t.store.read { (tx: BoardTransaction) throws -> Void in
                    let counted = try scope.map { try tx.index(of: id, inContainer: $0) } ?? tx.index(of: id, in: "people")
                    #expect(counted == index, "\(id)")
                }
                try t.store.read { (tx: BoardTransaction) throws -> Void in
                    #expect(try tx.rowBound(at: index, in: gap)?.id == id, "row \(index)")
                }
            }
            try t.store.read { (tx: BoardTransaction) throws -> Void in
                #expect(try tx.rowBound(at: ids.count, in: gap) == nil)
            }
        }
    }

    /// Files written before order keys were kept unique may hold two rows with one key: the
    /// index still follows `(pos, id)`, from either end.
    @Test func rowsSharingAKeyAreCountedInIdOrder() throws {
        let t = try TempStore(engine: .sqlite)  // PostgreSQL's schema refuses a shared key
        defer { t.remove() }
        try t.op { tx in _ = try tx.insert((0..<100).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "people")) }
        try t.store.dbPool.write { db in
            try db.execute(sql: "UPDATE item SET pos = (SELECT pos FROM item WHERE id = 'r89') WHERE id IN ('r90', 'r91')")
            try db.execute(sql: "UPDATE item SET pos = (SELECT pos FROM item WHERE id = 'b') WHERE id = 'r0'")
        }
        let ids = try t.ids("people")
        for (index, id) in ids.enumerated() {
            try t.store.read { (tx: BoardTransaction) throws -> Void in #expect(try tx.index(of: id, in: "people") == index, "\(id)") }
        }
    }
}
