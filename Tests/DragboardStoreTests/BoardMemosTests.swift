@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// A transaction starts from what the last one that found the board in the same state knew of it
/// (a drag start, its drop and its end ask for the same lists, containers and rows): only answers
/// that describe that state, and nothing else.
@Suite struct BoardMemosTests {
    typealias Statements = ReadMemoTests.Statements

    /// A change leaves what it knows of the lists it did not touch; the next transaction asks the
    /// database only about the lists the change wrote, and every answer is the database's.
    @Test func aTransactionStartsFromWhatTheLastChangeKnewOfTheBoard() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let kinds = ["box"]
        try t.op { tx in
            _ = try tx.containers(of: try tx.lists(), kinds: kinds)
            _ = try tx.rows(in: "boxes")
            _ = try tx.index(of: "l2", in: "links")
            try tx.move(["a"], to: Placement(listID: "empty"))  // people and empty: not the boxes, not the links
        }
        var remembered: [String] = []
        let statements = Statements()
        try t.store.read { tx in
            try statements.watch(tx.db)
            defer { statements.stop() }
            #expect(try statements.during {
                remembered = try describe(tx, kinds: kinds, unchanged: true)
            } == 0)
            // The lists the move wrote are read again.
            #expect(try statements.during { _ = try tx.rows(in: "people") } == 1)
            #expect(try statements.during { _ = try tx.index(of: "b", in: "people") } == 1)  // the row with its index
        }
        t.store.engine.memos.removeAll()
        let read = try t.store.read { tx in try describe(tx, kinds: kinds, unchanged: true) }
        #expect(remembered == read)

        // A box that moves changes the containers: they are read again, as they are now.
        try t.op { tx in try tx.move(["box2"], to: Placement(listID: "links")) }
        try t.store.read { tx in
            try statements.watch(tx.db)
            defer { statements.stop() }
            var containers: [String: [String]] = [:]
            #expect(try statements.during {
                containers = try tx.containers(of: try tx.lists(), kinds: kinds).mapValues { $0.map(\.row.id) }
            } == 1)
            #expect(containers == ["boxes": ["box1"], "links": ["box2"]])
        }
        // A box that comes out of a row of another kind, to a list without boxes: the lists written
        // held none, but a row of a container kind moved.
        try t.op { tx in try tx.move(["box2"], to: Placement(listID: "people", containerID: "b")) }
        _ = try t.store.read { tx in try tx.containers(of: try tx.lists(), kinds: kinds) }
        try t.op { tx in
            _ = try tx.containers(of: try tx.lists(), kinds: kinds)
            try tx.move(["box2"], to: Placement(listID: "empty"))
        }
        let containers = try t.store.read { tx in try tx.containers(of: try tx.lists(), kinds: kinds).mapValues { $0.map(\.row.id) } }
        #expect(containers == ["boxes": ["box1"], "empty": ["box2"]])
    }

    /// What a read states of the board: lists, counts, the boxes' list, the containers, a row, an index.
    private func describe(_ tx: BoardTransaction, kinds: [String], unchanged: Bool) throws -> [String] {
        let lists = try tx.lists()
        return [lists.map(\.id).joined(separator: " "),
                try tx.listCounts().map { "\($0.list)=\($0.count)" }.joined(separator: " "),
                try tx.rows(in: "boxes").map { "\($0.id)@\($0.pos)" }.joined(separator: " "),
                try tx.containers(of: lists, kinds: kinds).sorted { $0.key < $1.key }
                    .map { "\($0.key): \($0.value.map { "\($0.row.id)(\($0.rowCount))" })" }.joined(separator: " "),
                "\(try tx.item("a"))",
                "\(try tx.index(of: "l2", in: "links") ?? -1)"]
    }

    /// A board deleted and made again under its id starts its versions again: what was known of the
    /// first one at a version says nothing of the second at that version.
    @Test func aBoardMadeAgainUnderItsIdIsReadAgain() throws {
        let t = try TempStore()
        defer { t.remove() }
        func make(list: String) throws {
            _ = try t.store.createBoard(id: "again", title: "Again", operationID: UUID().uuidString, fingerprint: "c") { tx in
                _ = try tx.addList(ListRecord(id: list, title: list, kind: "people", position: 0)); return "{}"
            }
        }
        try make(list: "first")
        let version = try t.store.version(board: "again")
        #expect(try t.store.read(board: "again") { tx in try tx.lists().map(\.id) } == ["first"])
        _ = try t.store.perform(board: "again", operationID: "delete", fingerprint: "d") { tx in try tx.deleteBoard(); return "{}" }
        try make(list: "second")
        #expect(try t.store.version(board: "again") == version)
        #expect(try t.store.read(board: "again") { tx in try tx.lists().map(\.id) } == ["second"])
    }

    /// On PostgreSQL a change leaves what it knows before it commits, under the transaction that wrote
    /// the board's new version: a change that then rolls back left it under a name no committed
    /// version has, and the change that does take that version number (through another instance,
    /// here) is read as it is.
    @Test func whatAChangeThatRolledBackLeftIsNeverFound() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let board = BoardStore.defaultBoardID
        struct RolledBack: Error {}
        #expect(throws: RolledBack.self) {
            try t.store.engine.write { db in
                try db.lock(board: board)
                let tx = BoardTransaction(db: db, boardID: board, baseVersion: try StoreQueries.version(db, board: board))
                try tx.move(["a"], to: Placement(listID: "links"))
                try db.executeTogether([SQLWrite(BoardStore.setVersionSQL, [tx.newVersion, nil, nil, board], setsBoardVersion: true)])
                // What it then knows (and leaves): `a` in the links, 4 · 3 · 2 · 0.
                #expect(try tx.item("a").listID == "links" && tx.listCounts().map(\.count) == [4, 3, 2, 0])
                db.memo.leave(board: board, version: tx.newVersion, writer: db.writer, at: db.totalChangesCount)
                throw RolledBack()
            }
        }
        // Another instance takes the version number (this one's change would replace what was left).
        let other = try BoardStore(database: t.path)
        _ = try other.perform(operationID: "move", fingerprint: "m") { tx in try tx.move(["a"], to: Placement(listID: "empty")); return "{}" }
        let (place, counts) = try t.store.read { tx in (try tx.item("a").listID, try tx.listCounts().map(\.count)) }
        #expect(place == "empty")
        #expect(counts == [4, 2, 2, 1])
    }

    /// PostgreSQL sends no savepoints (a round trip each while the board is held): in one operation, a
    /// move that fails before writing leaves the others, and one that fails after writing fails the
    /// whole operation, which commits nothing of any of them.
    @Test func workThatFailsAfterWritingFailsItsWholeOperation() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let before = try t.store.version()
        try t.op { tx in
            for step in 0..<40 {
                try tx.move([step % 2 == 0 ? "a" : "b"], to: Placement(listID: step % 3 == 0 ? "links" : "empty", index: 0))
            }
            #expect(throws: StoreError.unknownItem("nobody")) { try tx.move(["nobody"], to: Placement(listID: "links")) }
        }
        #expect(try t.ids("people") == ["c", "d", "e"])
        #expect(try t.store.version() == before + 1)

        struct ChangedItsMind: Error {}
        #expect(throws: ChangedItsMind.self) {
            try t.op { tx in
                try tx.move(["c"], to: Placement(listID: "links", index: 0))
                do {
                    try tx.atomically {
                        try tx.move(["d"], to: Placement(listID: "links", index: 0))
                        throw ChangedItsMind()
                    }
                } catch is ChangedItsMind {}  // caught: the operation would go on, and commit part of that work
                try tx.move(["e"], to: Placement(listID: "links", index: 0))
                }
        }
        #expect(try t.ids("people") == ["c", "d", "e"])
        #expect(try t.store.version() == before + 1)
    }

    /// A board keeps its last few states, so a read that began before the latest change (its snapshot
    /// one version behind) still finds its own; the oldest goes first, whatever order they came in.
    @Test func aBoardKeepsItsLastFewStates() {
        let memos = BoardMemos(stateLimit: 3)
        func mark(_ version: Int) -> BoardMark { BoardMark(incarnation: "i", version: version, writer: "") }
        func answers(_ value: Int) -> [MemoKey: BoardMemos.Entry] { ["v": .init(value: value, scope: .board("b"))] }
        for version in [2, 1, 3] { memos.keep(answers(version), board: "b", at: mark(version)) }
        #expect([1, 2, 3].map { memos.answers(board: "b", at: mark($0))?["v"]?.value as? Int } == [1, 2, 3])
        memos.keep(answers(4), board: "b", at: mark(4))
        #expect(memos.answers(board: "b", at: mark(1)) == nil)
        #expect(memos.answers(board: "b", at: mark(4))?["v"]?.value as? Int == 4)
        // The same state again: what it adds is added to what is kept.
        memos.keep(["w": .init(value: 5, scope: .board("b"))], board: "b", at: mark(4))
        #expect(Set(memos.answers(board: "b", at: mark(4))?.keys ?? [:].keys) == ["v", "w"])
        #expect(memos.answers(board: "b", at: BoardMark(incarnation: "other", version: 4, writer: "")) == nil)
    }
}
