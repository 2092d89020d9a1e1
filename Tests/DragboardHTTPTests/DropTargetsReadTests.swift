import DragAndDrop
@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// A transaction reads the drop targets' row counts and containers for the whole board at once;
/// the targets must be those read list by list and container by container.
@Suite struct DropTargetsReadTests {
    /// Reads through the per-list requirements only, so the protocol's list-by-list defaults run.
    struct ListByList: BoardReading {
        let tx: BoardTransaction
        func listRecords() throws -> [ListRecord] { try tx.listRecords() }
        func rowCount(in listID: String) throws -> Int { try tx.rowCount(in: listID) }
        func topRows(in listID: String) throws -> [ItemRecord] { try tx.topRows(in: listID) }
        func containerRows(in listID: String, kinds: [String]) throws -> [ItemRecord] { try tx.containerRows(in: listID, kinds: kinds) }
        func rowCount(in listID: String, container containerID: String) throws -> Int { try tx.rowCount(in: listID, container: containerID) }
        var hasZones: Bool { tx.hasZones }
    }

    private static func described(_ targets: DropTargets) -> [String] {
        targets.lists.map { "\($0.target.id):\($0.target.rowCount):\(type(of: $0.delegate))" } + targets.zones.map { "zone \($0.target.id)" }
    }

    private static func expectSameTargets(_ board: TestBoard, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (batched, listByList) = try board.store.read { tx in
            (described(try tx.dropTargets(Showcase.kit)), described(try ListByList(tx: tx).dropTargets(Showcase.kit)))
        }
        #expect(batched == listByList, sourceLocation: sourceLocation)
        #expect(batched.contains { $0.hasPrefix("box-green:2:") }, sourceLocation: sourceLocation)
    }

    @Test func theBoardsTargetsAreTheSameReadAtOnce() async throws {
        let board = try await TestBoard()
        try Self.expectSameTargets(board)

        // A box emptied into another, a list emptied into another.
        let red = try board.store.contents(of: "box-red").map(\.id)
        #expect(try board.drop(try board.begin("box-red", red), list: "box-blue", row: nil).json["operation"] as? String == "move")
        let toys = try board.ids("cat-3")
        #expect(try board.drop(try board.begin("cat-3", toys), list: "cat-2", row: nil).json["operation"] as? String == "move")
        try Self.expectSameTargets(board)
        let (targets, inCat) = try board.store.read { tx in (Self.described(try tx.dropTargets(Showcase.kit)), try tx.rowCount(in: "cat-1")) }
        #expect(targets.contains { $0.hasPrefix("box-red:0:") } && targets.contains { $0.hasPrefix("box-blue:\(red.count):") })
        #expect(targets.contains { $0.hasPrefix("cat-3:0:") } && targets.contains { $0.hasPrefix("cat-1:\(inCat):") })
    }
}
