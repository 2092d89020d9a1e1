@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// The undo history in the store: each change kind's inverse, applied to the board as it is now.
@Suite struct UndoTests {
    let owner = "browser-a"

    /// Performs `body` as `owner`'s recorded change named `name`.
    @discardableResult
    func change(_ temp: TempStore, as owner: String? = nil, _ name: String = "Change", board: String = BoardStore.defaultBoardID,
                _ body: (BoardTransaction) throws -> Void) throws -> OperationResult {
        try temp.store.perform(board: board, operationID: UUID().uuidString, fingerprint: "f") { tx in
            tx.recordUndo(for: owner ?? self.owner, actionName: name)
            try body(tx)
            return "ok"
        }
    }

    func item(_ temp: TempStore, _ id: String) throws -> ItemRecord? {
        try temp.store.read { try? $0.item(id) }
    }

    @Test func aMoveIsUndoneBetweenItsOldNeighboursAndRedone() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let oldPos = try #require(try item(temp, "b")).pos
        try change(temp, "Move B") { try $0.move(["b"], to: Placement(listID: "links", index: 1)) }
        #expect(try temp.ids("links") == ["l1", "b", "l2"])
        #expect(try temp.store.undoState(owner: owner).undoActionName == "Move B")
        let version = try temp.store.version()
        let undone = try temp.store.undo(owner: owner)
        #expect(undone.actionName == "Move B")
        #expect(undone.result.version == version + 1)
        #expect(try temp.ids("people") == ["a", "b", "c", "d", "e"])
        #expect(try temp.ids("links") == ["l1", "l2"])
        #expect(try item(temp, "b")?.pos == oldPos)  // its own key again: nothing else was written
        #expect(try temp.store.undoState(owner: owner) == UndoState(undoActionName: nil, redoActionName: "Move B"))
        try temp.store.redo(owner: owner)
        #expect(try temp.ids("links") == ["l1", "b", "l2"])
        #expect(try temp.store.undoState(owner: owner) == UndoState(undoActionName: "Move B", redoActionName: nil))
    }

    @Test func aMovedRowReturnsBetweenItsNeighboursByIDNotByIndex() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.move(["c"], to: Placement(listID: "empty")) }
        // Someone else (no history) deletes `a` and adds rows at the end: c's old index 2 now points elsewhere.
        try temp.op { try $0.delete(["a"]); try $0.insert([NewItem(id: "z", kind: "person", title: "Z")], at: Placement(listID: "people")) }
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["b", "c", "d", "e", "z"])
    }

    @Test func whenOldNeighboursAreNoLongerAdjacentTheRowGoesRightAfterItsPreviousOne() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.move(["c"], to: Placement(listID: "empty")) }
        try temp.op { try $0.insert([NewItem(id: "n", kind: "person", title: "N")], at: Placement(listID: "people", after: "b")) }
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["a", "b", "c", "n", "d", "e"])
        // `n` took the middle of the gap, which was c's old key: c comes back with a key of its own.
        let keys = try temp.store.rows(in: "people").map(\.pos)
        #expect(Set(keys).count == keys.count)
    }

    @Test func aRowThatCameBackWithANewKeyCanBeRedoneAndUndoneAgain() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp, "Move C") { try $0.move(["c"], to: Placement(listID: "empty")) }
        // Someone else moves c's old previous row to the end: c's old key no longer sorts after it.
        try temp.op { try $0.move(["b"], to: Placement(listID: "people")) }
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["a", "d", "e", "b", "c"])
        try temp.store.redo(owner: owner)
        #expect(try temp.ids("empty") == ["c"])
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["a", "d", "e", "b", "c"])
    }

    @Test func anUndoOnABoardSomeoneElseDeletedIsRefusedAndDropped() throws {
        let temp = try TempStore(); defer { temp.remove() }
        _ = try temp.store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0)); return "{}"
        }
        try change(temp, "Rename", board: "b2") { try $0.renameList("ideas", "Plans") }
        _ = try temp.store.perform(board: "b2", operationID: "gone", fingerprint: "g") { tx in try tx.deleteBoard(); return "" }
        #expect(throws: StoreError.self) { try temp.store.undo(owner: owner) }
        #expect(try temp.store.undoState(owner: owner).canUndo == false)
    }

    @Test func undoRefusesWhenSomeoneElseMovedTheRowSinceAndChangesNothing() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp, "Move B") { try $0.move(["b"], to: Placement(listID: "links")) }
        try change(temp, as: "browser-b") { try $0.move(["b"], to: Placement(listID: "empty")) }
        let version = try temp.store.version()
        #expect {
            try temp.store.undo(owner: owner)
        } throws: { error in
            guard case StoreError.conflict(let message) = error else { return false }
            return message.contains("“B” in Links was moved by someone else since") && message.contains("Move B")
        }
        #expect(try temp.store.version() == version)
        #expect(try temp.ids("empty") == ["b"])
        // The refused change can never apply again: it is dropped, and the history is empty.
        #expect(try temp.store.undoState(owner: owner).canUndo == false)
        // The other browser's history is its own.
        #expect(try temp.store.undoState(owner: "browser-b").undoActionName == "Change")
    }

    @Test func undoRefusesARenamedOrDeletedRow() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.move(["a"], to: Placement(listID: "links")) }
        try temp.op { try $0.setTitle("a", "Alice") }
        #expect(throws: StoreError.self) { try temp.store.undo(owner: owner) }
        try change(temp) { try $0.move(["b"], to: Placement(listID: "links")) }
        try temp.op { try $0.delete(["b"]) }
        #expect {
            try temp.store.undo(owner: owner)
        } throws: { error in
            guard case StoreError.conflict(let message) = error else { return false }
            return message.contains("was deleted by someone else since")
        }
    }

    @Test func copiesAreRemovedWithTheirContents() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.copy(["box1", "a"], to: Placement(listID: "empty")) }
        let copies = try temp.ids("empty")
        #expect(copies.count == 2)
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("empty") == [])
        let count = try temp.store.engine.read { try $0.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM item") }
        #expect(count == 11)
        try temp.store.redo(owner: owner)
        #expect(try temp.ids("empty") == copies)  // the same ids come back
        #expect(try temp.store.read { try $0.rows(in: "empty", container: copies[0]) }.map(\.title) == ["T1", "T2"])
    }

    @Test func aDeletedRowComesBackWithItsIDContentAndPlace() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let before = try #require(try item(temp, "box1"))
        try change(temp) { try $0.delete(["box1", "c"]) }
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["a", "b", "c", "d", "e"])
        #expect(try temp.ids("boxes") == ["box1", "box2"])
        #expect(try temp.store.read { try $0.rows(in: "boxes", container: "box1") }.map(\.id) == ["t1", "t2"])
        let after = try #require(try item(temp, "box1"))
        #expect(after.title == before.title && after.payload == before.payload && after.pos == before.pos)
    }

    @Test func aDropIntoAContainerIsUndoneOutOfIt() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.move(["a"], to: Placement(listID: "boxes", containerID: "box2")) }
        try temp.store.undo(owner: owner)
        #expect(try temp.ids("people") == ["a", "b", "c", "d", "e"])
        #expect(try temp.store.read { try $0.rows(in: "boxes", container: "box2") }.isEmpty)
    }

    @Test func listsAndBoardsAreUndoneWithTheirRows() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { _ = try $0.addList(ListRecord(id: "new", title: "New", kind: "people", position: 0)) }
        try change(temp) { try $0.renameList("people", "Folks") }
        try change(temp) { try $0.moveLists(["empty"], to: 0) }
        try change(temp) { try $0.deleteList("boxes") }
        #expect(try temp.store.snapshot().lists.map(\.id) == ["empty", "people", "links", "new"])
        try temp.store.undo(owner: owner)
        #expect(try temp.store.snapshot().lists.map(\.id) == ["empty", "people", "links", "boxes", "new"])
        #expect(try temp.store.read { try $0.rows(in: "boxes", container: "box1") }.map(\.id) == ["t1", "t2"])
        try temp.store.undo(owner: owner)
        #expect(try temp.store.snapshot().lists.map(\.id) == ["people", "links", "boxes", "empty", "new"])
        try temp.store.undo(owner: owner)
        #expect(try temp.store.snapshot().lists.first?.title == "People")
        try temp.store.undo(owner: owner)
        #expect(try temp.store.snapshot().lists.map(\.id) == ["people", "links", "boxes", "empty"])

        _ = try temp.store.createBoard(id: "b2", title: "Second", operationID: UUID().uuidString, fingerprint: "f") { tx in
            tx.recordUndo(for: owner, actionName: "Create")
            _ = try tx.addList(ListRecord(id: "b2l", title: "L", kind: "people", position: 0))
            try tx.insert([NewItem(id: "b2i", kind: "person", title: "I")], at: Placement(listID: "b2l"))
            return "ok"
        }
        try change(temp, board: "b2") { try $0.deleteBoard() }
        #expect(try temp.store.board("b2") == nil)
        try temp.store.undo(owner: owner, board: "b2")
        #expect(try temp.store.board("b2")?.title == "Second")
        #expect(try temp.store.rows(in: "b2l", board: "b2").map(\.id) == ["b2i"])
    }

    @Test func zonesImagesAndLabelsAreUndone() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let image = ZoneImageRecord(id: "img", zoneID: "well", name: "a.png", mimeType: "image/png", size: 10)
        try change(temp) { try $0.addImage(image); try $0.setLabel("label", text: "Hello") }
        try change(temp) { try $0.setLabel("label", text: "Bye") }
        try temp.store.undo(owner: owner)
        #expect(try temp.store.read { try $0.label("label") } == "Hello")
        try temp.store.undo(owner: owner)
        #expect(try temp.store.read { try $0.image("img") } == nil)
        #expect(try temp.store.read { try $0.label("label") } == nil)
        try temp.store.redo(owner: owner)
        #expect(try temp.store.read { try $0.image("img") } == image)
    }

    @Test func aNewChangeClearsTheRedoStack() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp, "One") { try $0.move(["a"], to: Placement(listID: "empty")) }
        try temp.store.undo(owner: owner)
        #expect(try temp.store.undoState(owner: owner).redoActionName == "One")
        try change(temp, "Two") { try $0.move(["b"], to: Placement(listID: "empty")) }
        #expect(try temp.store.undoState(owner: owner) == UndoState(undoActionName: "Two", redoActionName: nil))
        #expect(throws: StoreError.conflict("There is nothing to redo.")) { try temp.store.redo(owner: owner) }
    }

    @Test func theHistoryKeepsTheNewestHundredChangesPerBrowser() throws {
        let temp = try TempStore(); defer { temp.remove() }
        for index in 0..<(BoardStore.undoLimit + 20) {
            try change(temp, "Rename \(index)") { try $0.setTitle("a", "A\(index)") }
        }
        #expect(try temp.store.undoCount(owner: owner) == BoardStore.undoLimit)
        #expect(try temp.store.undoState(owner: owner).undoActionName == "Rename \(BoardStore.undoLimit + 19)")
        for _ in 0..<BoardStore.undoLimit { try temp.store.undo(owner: owner) }
        #expect(try item(temp, "a")?.title == "A19")
        #expect(try temp.store.undoState(owner: owner).canUndo == false)
        #expect(try temp.store.pruneUndoHistory(olderThan: Date() + 1) == BoardStore.undoLimit)
    }

    @Test func eachBrowsersHistoryIsTrimmedOnItsOwn() throws {
        let temp = try TempStore(); defer { temp.remove() }
        let other = "other-browser"
        try change(temp, as: other, "Theirs") { try $0.setTitle("b", "Theirs") }
        for index in 0..<(BoardStore.undoLimit + 5) {
            try change(temp, "Rename \(index)") { try $0.setTitle("a", "A\(index)") }
        }
        try temp.store.undo(owner: owner)
        try change(temp, "After the undo") { try $0.setTitle("c", "C2") }
        #expect(try temp.store.undoCount(owner: owner) == BoardStore.undoLimit)
        #expect(try temp.store.undoState(owner: owner) == UndoState(undoActionName: "After the undo", redoActionName: nil))
        #expect(try temp.store.undoCount(owner: other) == 1)
        #expect(try temp.store.undoState(owner: other).undoActionName == "Theirs")
    }

    @Test func keepingTheHistoryShortWalksTheOwnersIndexWithoutSorting() throws {
        let temp = try TempStore(engine: .sqlite); defer { temp.remove() }
        let statements: [(String, StatementArguments)] = [(BoardStore.forgetRedoSQL, [owner]),
                                                          (BoardStore.trimHistorySQL, [owner, owner, BoardStore.undoLimit])]
        for (sql, arguments) in statements {
            let plan = try temp.store.dbPool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] as String }
            }
            // Every drop runs both in its write transaction: seeks, whatever the history's length.
            let reads = plan.filter { $0.hasPrefix("SEARCH") || $0.hasPrefix("SCAN") }
            #expect(!reads.isEmpty && reads.allSatisfy { $0.contains("undoEntry_owner_undone (owner=? AND undone=?") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") })
        }
    }

    @Test func theHistorySurvivesReopeningTheDatabase() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp, "Move C") { try $0.move(["c"], to: Placement(listID: "links", index: 0)) }
        let reopened = try BoardStore(database: temp.path)
        #expect(try reopened.undoState(owner: owner).undoActionName == "Move C")
        try reopened.undo(owner: owner)
        #expect(try reopened.rows(in: "people").map(\.id) == ["a", "b", "c", "d", "e"])
    }

    @Test func aMoveAcrossBoardsIsUndoneBackAndBothBoardsAdvance() throws {
        let temp = try TempStore(); defer { temp.remove() }
        _ = try temp.store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0)); return "{}"
        }
        try change(temp, board: "b2") { try $0.move(["b", "c"], to: Placement(listID: "ideas")) }
        let (demo, second) = (try temp.store.version(), try temp.store.version(board: "b2"))
        let undone = try temp.store.undo(owner: owner, board: "b2")
        #expect(undone.result.version == second + 1)
        #expect(undone.result.departures.map(\.board) == [BoardStore.defaultBoardID])
        #expect(try temp.store.version() == demo + 1)
        #expect(try temp.ids("people") == ["a", "b", "c", "d", "e"])
        #expect(try temp.store.rows(in: "ideas", board: "b2").isEmpty)
    }

    @Test func anUndoOnABoardTakesItsNewestEntryTherePastNewerOnesElsewhere() throws {
        let temp = try TempStore(); defer { temp.remove() }
        _ = try temp.store.createBoard(id: "b2", title: "Second", operationID: "create", fingerprint: "c") { tx in
            _ = try tx.addList(ListRecord(id: "ideas", title: "Ideas", kind: "people", position: 0)); return "{}"
        }
        try change(temp, "Rename on the demo") { try $0.renameList("links", "Bookmarks") }
        for index in 0..<5 {
            try change(temp, "Rename \(index) on b2", board: "b2") { try $0.renameList("ideas", "Ideas \(index)") }
        }
        // The newest entry on the demo board lies past five newer ones on b2, along the owner's index.
        #expect(try temp.store.undoState(owner: owner, board: BoardStore.defaultBoardID).undoActionName == "Rename on the demo")
        #expect(try temp.store.undoState(owner: owner).undoActionName == "Rename 4 on b2")
        let undone = try temp.store.undo(owner: owner, board: BoardStore.defaultBoardID)
        #expect(undone.actionName == "Rename on the demo")
        #expect(try temp.store.lists().first { $0.id == "links" }?.title == "Links")
        #expect(try temp.store.undoState(owner: owner, board: "b2").undoActionName == "Rename 4 on b2")
        #expect(try temp.store.undoState(owner: owner, board: BoardStore.defaultBoardID).redoActionName == "Rename on the demo")
    }

    @Test func anUndoIsIdempotentByOperationID() throws {
        let temp = try TempStore(); defer { temp.remove() }
        try change(temp) { try $0.move(["a"], to: Placement(listID: "empty")) }
        try change(temp) { try $0.move(["b"], to: Placement(listID: "empty")) }
        let first = try temp.store.undo(owner: owner, operationID: "undo-1")
        let retry = try temp.store.undo(owner: owner, operationID: "undo-1")
        #expect(retry.result.replayed && retry.result.version == first.result.version)
        #expect(try temp.ids("empty") == ["a"])
    }
}
