@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// Two instances taking turns on a board: each change says in the board's row which rows it wrote
/// since which state, so the other instance keeps what it knew of the rest instead of reading it all
/// again at every turn.
@Suite struct VersionStepTests {
    typealias Statements = ReadMemoTests.Statements
    let board = BoardStore.defaultBoardID

    @Test func aStepReadsBackAsItWasWritten() throws {
        let named = VersionStep(version: 12, baseVersion: 9, baseWriter: "7731",
                                write: RowWrite(lists: ["people", "links"], kinds: ["person"], rows: ["a", "b"], counts: ["people": -2, "links": 2]))
        let unnamed = VersionStep(version: 3, baseVersion: 2, baseWriter: "x", write: RowWrite(lists: ["people"], kinds: ["person"]))
        let nothing = VersionStep(version: 3, baseVersion: 2, baseWriter: "x", write: .none)
        for step in [named, unnamed, nothing] {
            #expect(try VersionStep(decoding: #require(step.encoded)) == step)
        }
        // Rows it could not name stay unnamed (any row of its lists), not "no row"; counts it could
        // not say stay unknown, not unchanged.
        #expect(try VersionStep(decoding: #require(unnamed.encoded))?.write.rows == nil)
        #expect(try VersionStep(decoding: #require(unnamed.encoded))?.write.counts == nil)
        #expect(try VersionStep(decoding: #require(nothing.encoded))?.write.rows == [])
        #expect(try VersionStep(decoding: #require(nothing.encoded))?.write.counts == [:])
    }

    @Test func anIdItCannotSeparateAndAnyOtherTextSayNothing() {
        let odd = VersionStep(version: 3, baseVersion: 2, baseWriter: "x", write: RowWrite(lists: ["peo\u{1F}ple"], kinds: ["person"]))
        #expect(odd.encoded == nil)
        #expect(VersionStep(version: 3, baseVersion: 2, baseWriter: "", write: .none).encoded == nil)
        #expect(VersionStep(decoding: "3\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}*\u{1E}*") != nil)
        for text in ["", "3", "3\u{1E}2\u{1E}x", "three\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}*\u{1E}*", "3\u{1E}2\u{1E}\u{1E}\u{1E}\u{1E}*\u{1E}*",
                     "3\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}\u{1E}*", "3\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}*\u{1E}=a",
                     "3\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}*\u{1E}=a\u{1F}one", "3\u{1E}2\u{1E}x\u{1E}\u{1E}\u{1E}*\u{1E}*\u{1E}"] {
            #expect(VersionStep(decoding: text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func writesAddUp() {
        var write = RowWrite.none
        write.formUnion(RowWrite(lists: ["people"], kinds: ["person"], rows: ["a"]))
        write.formUnion(RowWrite(lists: ["people", "links"], kinds: ["person"], rows: ["b", "a"]))
        #expect(write == RowWrite(lists: ["people", "links"], kinds: ["person"], rows: ["a", "b"]))
        write.formUnion(RowWrite(lists: ["empty"], kinds: ["box"]))
        #expect(write == RowWrite(lists: ["people", "links", "empty"], kinds: ["person", "box"]))
        // Count changes add up; one write that cannot say them makes them all unknown.
        var counted = RowWrite.none
        counted.formUnion(RowWrite(lists: ["people", "links"], kinds: ["person"], counts: ["people": -1, "links": 1]))
        counted.formUnion(RowWrite(lists: ["links", "empty"], kinds: ["person"], counts: ["links": -1, "empty": 1]))
        #expect(counted.counts == ["people": -1, "empty": 1])
        counted.formUnion(RowWrite(lists: ["empty"], kinds: ["box"]))
        #expect(counted.counts == nil)
    }

    /// What this instance knows of the board after the lock: the answers themselves, never read.
    private func known(_ db: any SQLConnection) -> (lists: [String]?, links: [String]?, people: [String]?, counts: [Int]?) {
        (db.remembered(StoreQueries.listsKey(board), as: [ListRecord].self)?.map(\.id),
         db.remembered("rows links\u{1F}", as: [ItemRecord].self)?.map(\.id),
         db.remembered("rows people\u{1F}", as: [ItemRecord].self)?.map(\.id),
         db.remembered(StoreQueries.listCountsKey(board), as: [StoreQueries.ListCount].self)?.map(\.count))
    }

    /// Another instance's move within a list: this one still knows the lists and the other lists'
    /// rows, not that list's, and what it knows is what the database says.
    @Test func aMoveThroughAnotherInstanceLeavesWhatItCannotHaveChanged() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        try t.store.read { tx in _ = (try tx.lists(), try tx.listCounts(), try tx.rows(in: "links"), try tx.rows(in: "people")) }
        _ = try other.perform(operationID: "within", fingerprint: "w") { tx in
            try tx.move(["a"], to: Placement(listID: "people", index: 3)); return "{}"
        }
        try t.store.engine.write { db in
            try db.lock(board: board, readingOperation: nil)
            let known = known(db)
            #expect(known.lists == ["people", "links", "boxes", "empty"])
            #expect(known.links == ["l1", "l2"])
            #expect(known.people == nil)
            #expect(known.counts == [5, 2, 2, 0])
            let tx = BoardTransaction(db: db, boardID: board, baseVersion: try StoreQueries.version(db, board: board))
            #expect(try tx.rows(in: "people").map(\.id) == ["b", "c", "a", "d", "e"])
        }
        // Across lists, with turns: a move to the links, then one back to the people through this
        // instance, then another through the other: each instance starts from the other's step.
        _ = try other.perform(operationID: "across", fingerprint: "a") { tx in
            try tx.move(["b"], to: Placement(listID: "links")); return "{}"
        }
        _ = try t.store.perform(operationID: "back", fingerprint: "b") { tx in
            _ = try tx.rows(in: "boxes")
            try tx.move(["l1"], to: Placement(listID: "people")); return "{}"
        }
        _ = try other.perform(operationID: "again", fingerprint: "g") { tx in
            try tx.move(["c"], to: Placement(listID: "empty")); return "{}"
        }
        try t.store.engine.write { db in
            try db.lock(board: board, readingOperation: nil)
            #expect(db.remembered("rows boxes\u{1F}", as: [ItemRecord].self)?.map(\.id) == ["box1", "box2"])
            #expect(known(db).lists != nil && known(db).people == nil)
            #expect(known(db).counts == [4, 2, 2, 1])  // they followed every move, whoever made it
        }
        // A row nested in a box comes out to a list's top level: the box's list lost no top-level row.
        _ = try other.perform(operationID: "out", fingerprint: "o") { tx in
            try tx.move(["t1"], to: Placement(listID: "empty")); return "{}"
        }
        try t.store.engine.write { db in
            try db.lock(board: board, readingOperation: nil)
            #expect(db.remembered("rows boxes\u{1F}", as: [ItemRecord].self) == nil)
            #expect(known(db).counts == [4, 2, 2, 2])
            #expect(db.remembered(StoreQueries.rowCountKey("empty", nil), as: Int.self) == 2)
        }
        t.store.engine.memos.removeAll()
        let fresh = try t.store.read { tx in try ["people", "links", "boxes", "empty"].map { try tx.rows(in: $0).map(\.id) } }
        #expect(fresh == [["a", "d", "e", "l1"], ["l2", "b"], ["box1", "box2"], ["c", "t1"]])
        #expect(try t.store.read { try $0.listCounts().map(\.count) } == [4, 2, 2, 2])
    }

    /// A change the memo cannot account for (a title, a new list) leaves no step: the other instance
    /// reads the board again. So does a version raised without one (another board's departure, or
    /// an older build that does not write the column).
    @Test func aChangeOtherThanAMoveLeavesNothingToKeep() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        /// Whether, having read the board, then `change` made, this instance knows its lists at the lock.
        func knowsTheLists(after change: () throws -> Void) throws -> Bool {
            try t.store.read { tx in _ = (try tx.lists(), try tx.rows(in: "links")) }
            try change()
            return try t.store.engine.write { db in
                try db.lock(board: board, readingOperation: nil)
                return known(db).lists != nil
            }
        }
        func move(_ id: String) throws {
            _ = try other.perform(operationID: "move \(id)", fingerprint: "m") { tx in try tx.move([id], to: Placement(listID: "links")); return "{}" }
        }
        #expect(try knowsTheLists { try move("a") })
        #expect(try !knowsTheLists {
            _ = try other.perform(operationID: "rename", fingerprint: "r") { tx in
                try tx.move(["b"], to: Placement(listID: "links"))
                try tx.setTitle("c", "Renamed"); return "{}"
            }
        })
        #expect(try !knowsTheLists {
            try move("d")
            try other.engine.write { db in
                try db.execute(sql: "UPDATE board SET version = version + 1 WHERE id = ?", arguments: [board])
            }
        })
        #expect(try t.store.read { try $0.item("c").title } == "Renamed")
    }

    /// After its bookkeeping a change knows the version it raised the board to (a batch's next
    /// operation reads it no more), unless it wrote what the memo cannot account for.
    @Test func aChangeKnowsTheVersionItRaisedTheBoardTo() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let statements = Statements()
        func bookkeeping(_ db: any SQLConnection, to version: Int) throws {
            let stamp = db.totalChangesCount
            try db.executeTogether([SQLWrite(BoardStore.setVersionSQL, [version, nil, nil, board], setsBoardVersion: true)])
            db.memo.bookkept(board: board, version: version, from: stamp, to: db.totalChangesCount, except: [ReadMemo.versionKey(board)])
        }
        try t.store.engine.write { db in
            try statements.watch(db)
            defer { statements.stop() }
            let tx = BoardTransaction(db: db, boardID: board, baseVersion: try StoreQueries.version(db, board: board))
            try tx.move(["a"], to: Placement(listID: "links"))
            try bookkeeping(db, to: tx.newVersion)
            var version: Int?
            #expect(try statements.during { version = try StoreQueries.version(db, board: board) } == 0)
            #expect(version == tx.newVersion)
            try db.execute(sql: "DELETE FROM board WHERE id = ?", arguments: [board])
            try bookkeeping(db, to: tx.newVersion + 1)
            var failure: (any Error)?
            #expect(statements.during {
                do { _ = try StoreQueries.version(db, board: board) } catch { failure = error }
            } == 1)
            #expect(failure as? StoreError == .unknownBoard(board))
        }
    }
}
