import Foundation
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
}
