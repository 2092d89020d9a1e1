@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// A card's details and a board's labels and colour as the store keeps them, on either engine:
/// undone and redone like any change, carried by moves and copies.
@Suite struct CardDetailsStoreTests {
    let owner = "browser-a"

    @discardableResult
    func change(_ temp: TempStore, _ body: (BoardTransaction) throws -> Void) throws -> OperationResult {
        try temp.store.perform(board: BoardStore.defaultBoardID, operationID: UUID().uuidString, fingerprint: "f") { tx in
            tx.recordUndo(for: owner, actionName: "Change")
            try body(tx)
            return "ok"
        }
    }

    func details(_ temp: TempStore, _ id: String) throws -> CardDetails {
        try temp.store.read { CardDetails.of(payload: try $0.item(id).payload) }
    }

    @Test func detailsAreAChangeOfTheRowUndoneAndRedone() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let details = CardDetails(description: "Call Ada", due: "2026-12-01", checklist: [CheckItem(id: "k", title: "Dial")])
        let version = try temp.store.version()
        try change(temp) { tx in try tx.setPayload("a", details.stored(in: try tx.item("a").payload)) }
        #expect(try temp.store.version() == version + 1)
        #expect(try self.details(temp, "a") == details)
        #expect(try temp.store.read { try $0.item("a").payload }.contains(#""age":34"#))
        try temp.store.undo(owner: owner)
        #expect(try self.details(temp, "a").isEmpty)
        try temp.store.redo(owner: owner)
        #expect(try self.details(temp, "a") == details)
        // Unchanged details write nothing.
        let now = try temp.store.version()
        try temp.op { tx in try tx.setPayload("a", try tx.item("a").payload) }
        #expect(try temp.store.version() == now)
        #expect(throws: (any Error).self) { try temp.op { try $0.setPayload("a", "not json") } }
    }

    @Test func detailsTravelWithMovesAndCopies() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let details = CardDetails(description: "Kept", labels: ["l1"])
        try temp.op { tx in try tx.setPayload("b", details.stored(in: try tx.item("b").payload)) }
        try temp.op { try $0.move(["b"], to: Placement(listID: "empty")) }
        #expect(try self.details(temp, "b") == details)
        let copies = try temp.store.perform(board: BoardStore.defaultBoardID, operationID: UUID().uuidString, fingerprint: "c") { tx in
            try tx.copy(["b"], to: Placement(listID: "links")).joined(separator: ",")
        }
        #expect(try self.details(temp, copies.response) == details)
    }

    @Test func labelsAndColourAreTheBoardsUndoneAndRedone() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let labels = BoardLabels([BoardLabel(id: "u", name: "Urgent", color: .red)])
        try change(temp) { try $0.setLabels(labels) }
        #expect(try temp.store.read { try $0.labels() } == labels)
        try change(temp) { try $0.setColor(.green) }
        #expect(try temp.store.board(BoardStore.defaultBoardID)?.color == .green)
        try temp.store.undo(owner: owner)
        #expect(try temp.store.board(BoardStore.defaultBoardID)?.color == .boardDefault)
        try temp.store.undo(owner: owner)
        #expect(try temp.store.read { try $0.labels() }.all.isEmpty)
        try temp.store.redo(owner: owner)
        #expect(try temp.store.read { try $0.labels() } == labels)
        // Someone else changed the labels since: undo refuses and changes nothing.
        let other = BoardLabels(labels.all + [BoardLabel(id: "w", name: "Wait", color: .grey)])
        try temp.op { try $0.setLabels(other) }
        #expect(throws: (any Error).self) { try temp.store.undo(owner: owner) }
        #expect(try temp.store.read { try $0.labels() } == other)
    }

    @Test func aDeletedBoardComesBackWithItsColourAndLabels() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let labels = BoardLabels([BoardLabel(id: "u", name: "Urgent", color: .red)])
        _ = try temp.store.createBoard(id: "b2", title: "Two", color: .pink, operationID: UUID().uuidString, fingerprint: "n") { tx in
            try tx.setLabels(labels)
            return "ok"
        }
        _ = try temp.store.perform(board: "b2", operationID: UUID().uuidString, fingerprint: "d") { tx in
            tx.recordUndo(for: owner, actionName: "Delete")
            try tx.deleteBoard()
            return "ok"
        }
        #expect(try temp.store.board("b2") == nil)
        try temp.store.undo(owner: owner)
        #expect(try temp.store.board("b2")?.color == .pink)
        #expect(try temp.store.read(board: "b2") { try $0.labels() } == labels)
    }

    @Test func aCardMovedOrCopiedToAnotherBoardWearsThatBoardsLabelsOfTheSameNames() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let urgent = BoardLabel(id: "u", name: "Urgent", color: .red), later = BoardLabel(id: "l", name: "Later", color: .grey)
        try temp.op { tx in
            try tx.setLabels(BoardLabels([urgent, later]))
            try tx.setPayload("a", CardDetails(labels: ["u", "l"]).stored(in: try tx.item("a").payload))
            try tx.setPayload("b", CardDetails(labels: ["l"]).stored(in: try tx.item("b").payload))
        }
        _ = try temp.store.createBoard(id: "b2", title: "Two", operationID: UUID().uuidString, fingerprint: "n") { tx in
            _ = try tx.addList(ListRecord(id: "inbox", title: "Inbox", kind: "people", position: 0))
            try tx.setLabels(BoardLabels([BoardLabel(id: "u2", name: "urgent", color: .orange)]))
            return "ok"
        }
        _ = try temp.store.perform(board: "b2", operationID: UUID().uuidString, fingerprint: "m") { tx in
            tx.recordUndo(for: owner, actionName: "Move")
            try tx.move(["a"], to: Placement(listID: "inbox"))
            return "ok"
        }
        let labels = try temp.store.read(board: "b2") { try $0.labels() }
        let made = try #require(labels.all.first { $0.name == "Later" })
        #expect(labels.all.map(\.name) == ["urgent", "Later"] && made.color == .grey && made.id != "l")
        #expect(try details(temp, "a").labels == ["u2", made.id])
        let copied = try temp.store.perform(board: "b2", operationID: UUID().uuidString, fingerprint: "c") { tx in
            try tx.copy(["b"], to: Placement(listID: "inbox")).joined()
        }
        #expect(try details(temp, copied.response).labels == [made.id])
        #expect(try details(temp, "b").labels == ["l"])   // the original keeps its own board's
        // Undone: the card is back on its board wearing that board's labels, and the made label is gone.
        try temp.store.undo(owner: owner)
        #expect(try details(temp, "a").labels == ["u", "l"])
        #expect(try temp.store.read(board: "b2") { try $0.labels() }.all.map(\.name) == ["urgent"])
    }

    @Test func theIndexCountsEachBoardsListsAndCards() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let counts = try temp.store.boardCounts()[BoardStore.defaultBoardID]
        #expect(counts?.lists == 4)
        #expect(counts?.cards == 9)   // top rows only: a box's toys are inside it
    }
}
