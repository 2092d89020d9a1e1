@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard

/// Order keys crowded into one gap are rebalanced around the gap, never across the whole list.
@Suite struct RebalanceTests {
    /// people: a b c d e, then `count` more rows appended (short keys, in order).
    private func longList(_ t: TempStore, _ count: Int) throws -> [String] {
        let ids = (0..<count).map { String(format: "r%05d", $0) }
        try t.op { tx in _ = try tx.insert(ids.map { NewItem(id: $0, kind: "person", title: $0) }, at: Placement(listID: "people")) }
        return ["a", "b", "c", "d", "e"] + ids
    }

    private func expectOrderedAndShort(_ rows: [ItemRecord], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rows.allSatisfy { $0.pos.utf8.count <= BoardStore.maxKeyLength }, sourceLocation: sourceLocation)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { OrderBound.precedes(OrderBound(pos: $0.pos, id: $0.id), OrderBound(pos: $1.pos, id: $1.id)) },
                sourceLocation: sourceLocation)
    }

    @Test func thousandsOfInsertsIntoOneGapStayShortAndTouchFewRows() throws {
        let t = try TempStore()
        defer { t.remove() }
        var expected = try longList(t, 4_000)
        let keysBefore = try t.store.rows(in: "people")
        let right = expected[2_001]
        var largest = 0, total = 0
        for batch in 0..<250 {  // 2,500 rows, each inserted just before `right`: one shrinking gap
            try t.op { tx in
                for number in 0..<10 {
                    let id = String(format: "n%05d", batch * 10 + number)
                    try tx.insert([NewItem(id: id, kind: "person", title: id)], at: Placement(listID: "people", before: right))
                    expected.insert(id, at: expected.firstIndex(of: right)!)
                }
                largest = max(largest, tx.rebalancedRows.largest)
                total += tx.rebalancedRows.total
            }
        }
        let rows = try t.store.rows(in: "people")
        #expect(rows.map(\.id) == expected)
        expectOrderedAndShort(rows)
        #expect(total > 0)  // the gap did fill up, more than once
        // Each rebalance re-keyed a neighbourhood of the gap: a few hundred rows at most of 6,505.
        #expect(largest <= 600)
        // Rows far from the gap kept their keys.
        let after = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.pos) })
        for row in keysBefore.prefix(1_000) + keysBefore.suffix(1_000) { #expect(after[row.id] == row.pos) }
    }

    @Test func movesIntoACrowdedGapKeepTheOrderWhenTheMovingRowsAreNeighbours() throws {
        let t = try TempStore()
        defer { t.remove() }
        var expected = try longList(t, 300)
        let right = expected[150]
        for round in 0..<200 {
            // The two rows just before the gap move into it again and again (in swapped order), so
            // the rows being moved sit inside the neighbourhood every rebalance re-keys.
            let index = expected.firstIndex(of: right)!
            let moving = [expected[index - 1], expected[index - 2]]
            expected.removeAll { moving.contains($0) }
            expected.insert(contentsOf: moving, at: expected.firstIndex(of: right)!)
            // The moved rows' neighbours as the move left them in the transaction's memory (not kept
            // when a rebalance re-keyed the gap's neighbours) are the stored ones.
            let at = expected.firstIndex(of: moving[0])!
            try t.op { tx in
                try tx.move(moving, to: Placement(listID: "people", before: right))
                #expect(try tx.predecessor(of: moving[0]) == expected[at - 1])
                #expect(try tx.predecessor(of: right) == moving[1])
                let first = try tx.item(moving[0])
                let gap = Gap(listID: "people", containerID: nil)
                let before = try tx.bound(before: OrderBound(pos: first.pos, id: first.id), in: gap, skipping: [])
                #expect(before?.id == expected[at - 1])
                #expect(try before.map { try tx.item($0.id).pos } == before?.pos)  // its key as stored, even after a rebalance
            }
            if round % 3 == 0 {
                let id = "x\(round)"
                try t.op { tx in _ = try tx.insert([NewItem(id: id, kind: "person", title: id)], at: Placement(listID: "people", before: right)) }
                expected.insert(id, at: expected.firstIndex(of: right)!)
            }
        }
        let rows = try t.store.rows(in: "people")
        #expect(rows.map(\.id) == expected)
        expectOrderedAndShort(rows)
    }

    @Test func aMoveThatRebalancesReadsItsNeighboursKeysAgain() throws {
        let t = try TempStore()
        defer { t.remove() }
        _ = try longList(t, 100)
        let gap = Gap(listID: "people", containerID: nil)
        var rebalancingMoves = 0
        try t.op { tx in
            // "a" and "b" take turns just before r00050: one shrinking gap, until a move must rebalance.
            for turn in 0..<2_000 where rebalancingMoves == 0 {
                let (moving, other) = turn % 2 == 0 ? ("a", "b") : ("b", "a")
                let rebalanced = tx.rebalancedRows.total
                try tx.move([moving], to: Placement(listID: "people", before: "r00050"))
                guard turn > 0 else { continue }
                if tx.rebalancedRows.total > rebalanced { rebalancingMoves += 1 }
                // The neighbours as the transaction knows them, keys included, are the stored ones.
                let row = try tx.item(moving)
                let before = try tx.bound(before: OrderBound(pos: row.pos, id: moving), in: gap, skipping: [])
                let after = try tx.bound(after: OrderBound(pos: row.pos, id: moving), in: gap, skipping: [])
                #expect(before?.id == other && after?.id == "r00050")
                #expect(try before.map { try tx.item($0.id).pos } == before?.pos)
                #expect(try after.map { try tx.item($0.id).pos } == after?.pos)
            }
        }
        #expect(rebalancingMoves == 1)
    }

    @Test func aShortListIsRebalancedWhole() throws {
        let t = try TempStore()
        defer { t.remove() }
        var largest = 0
        try t.op { tx in
            for number in 0..<400 {
                try tx.insert([NewItem(id: "n\(number)", kind: "person", title: "N")], at: Placement(listID: "people", before: "c"))
            }
            largest = tx.rebalancedRows.largest
        }
        let rows = try t.store.rows(in: "people")
        #expect(rows.map(\.id) == ["a", "b"] + (0..<400).map { "n\($0)" } + ["c", "d", "e"])
        expectOrderedAndShort(rows)
        #expect(largest > 0)
    }
}
