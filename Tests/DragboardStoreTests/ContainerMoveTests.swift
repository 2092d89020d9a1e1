@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard

/// Rows moved into a container's contents at an index and out again: each move is one UPDATE of
/// the row's own record, its order key falls between its new neighbours', and no other key moves.
@Suite struct ContainerMoveTests {
    @Test func aRowMovedIntoAContainerAtAnIndexTakesAKeyBetweenItsNeighbours() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.physicalRows()
        try t.op { try $0.move(["a"], to: Placement(listID: "boxes", containerID: "box1", index: 1)) }
        let after = try t.physicalRows()
        #expect(try t.store.contents(of: "box1").map(\.id) == ["t1", "a", "t2"])
        #expect(after["a"]?.rowid == before["a"]?.rowid)   // the same row, moved
        let keys = try #require(after["t1"]?.pos).utf8.lexicographicallyPrecedes(try #require(after["a"]?.pos).utf8)
            && (try #require(after["a"]?.pos)).utf8.lexicographicallyPrecedes(try #require(after["t2"]?.pos).utf8)
        #expect(keys)
        for id in ["t1", "t2", "b", "box1"] { #expect(after[id]?.pos == before[id]?.pos) }
        #expect(try t.store.items(["a"])[0].listID == "boxes")
        #expect(try t.store.read { try $0.index(of: "a", inContainer: "box1") } == 1)
        #expect(try t.store.read { try $0.index(of: "a", in: "boxes") } == nil)   // not a top-level row
    }

    @Test func aRowMovedOutOfAContainerBecomesARowOfTheListAtTheIndex() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.physicalRows()
        try t.op { try $0.move(["t1"], to: Placement(listID: "people", index: 2)) }
        let after = try t.physicalRows()
        #expect(try t.ids("people") == ["a", "b", "t1", "c", "d", "e"])
        #expect(try t.store.contents(of: "box1").map(\.id) == ["t2"])
        let moved = try #require(try t.store.items(["t1"]).first)
        #expect(moved.containerID == nil && moved.listID == "people")
        #expect(after["t1"]?.rowid == before["t1"]?.rowid)
        for id in ["a", "b", "c", "t2"] { #expect(after[id]?.pos == before[id]?.pos) }
    }

    @Test func aRowMovesFromOneContainerToAnotherAndWithinOne() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { try $0.move(["t2"], to: Placement(listID: "boxes", containerID: "box2", index: 0)) }
        #expect(try t.store.contents(of: "box1").map(\.id) == ["t1"])
        #expect(try t.store.contents(of: "box2").map(\.id) == ["t2"])
        try t.op { try $0.move(["t1"], to: Placement(listID: "boxes", containerID: "box2", index: 1)) }
        #expect(try t.store.contents(of: "box2").map(\.id) == ["t2", "t1"])
        // Within one container: to the front.
        let result = try t.op { try $0.move(["t1"], to: Placement(listID: "boxes", containerID: "box2", index: 0)) }
        #expect(try t.store.contents(of: "box2").map(\.id) == ["t1", "t2"])
        // Onto the spot it already has: no write, no new version.
        let again = try t.op { try $0.move(["t1"], to: Placement(listID: "boxes", containerID: "box2", index: 0)) }
        #expect(again.version == result.version)
        #expect(try t.store.contents(of: "box1").isEmpty)
    }

    @Test func anIndexPastTheContainersEndChangesNothing() throws {
        let t = try TempStore()
        defer { t.remove() }
        let before = try t.physicalRows()
        #expect(throws: StoreError.self) {
            try t.op { try $0.move(["a"], to: Placement(listID: "boxes", containerID: "box1", index: 3)) }
        }
        let after = try t.physicalRows()
        #expect(after.mapValues(\.pos) == before.mapValues(\.pos))
    }
}
