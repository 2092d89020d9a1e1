@testable import DragboardStore
import Dragboard
import GRDB
import Synchronization
import Testing

/// A drop asks for the same neighbours, counts, containers and lists while it decides, moves and
/// answers; over a network each read is a round trip (PostgreSQL), so a transaction reads each once
/// until it writes, and again after.
@Suite struct ReadMemoTests {
    /// Counts the statements SQLite runs on the transaction's connection.
    final class Statements: @unchecked Sendable {  // used on the transaction's thread only
        var count = 0
        private var watched: DragboardStore.SQLiteConnection?

        /// Counts from now on what SQLite runs on `db`, until ``stop()``.
        func watch(_ db: any SQLConnection) throws {
            let sqlite = try #require(db as? DragboardStore.SQLiteConnection)
            sqlite.db.trace { [unowned self] _ in count += 1 }
            watched = sqlite
        }

        func stop() {
            watched?.db.trace(options: .statement, nil)
            watched = nil
        }

        func during(_ body: () throws -> Void) rethrows -> Int {
            let before = count
            try body()
            return count - before
        }
    }

    @Test func aTransactionReadsEachThingOnceUntilItWrites() throws {
        let temp = try TempStore(engine: .sqlite)
        defer { temp.remove() }
        let board = BoardStore.defaultBoardID
        try temp.store.engine.write { db in
            let statements = Statements()
            try statements.watch(db)
            defer { statements.stop() }
            let tx = BoardTransaction(db: db, boardID: board, baseVersion: try StoreQueries.version(db, board: board))
            let people = Gap(listID: "people", containerID: nil)

            let lists = try StoreQueries.lists(db, board: board)
            #expect(try statements.during { _ = try tx.containers(of: lists, kinds: ["box"]) } == 1)
            // What the query above and the board's lists already said.
            var boxes: [ItemRecord] = []
            var unknown: (any Error)?
            #expect(try statements.during {
                boxes = try ["box1", "box2"].map { try StoreQueries.requireItem(db, $0) }
                try StoreQueries.requireList(db, "people", board: board)
                if try StoreQueries.board(ofList: "links", db, likely: board) != board { unknown = StoreError.unknownList("links") }
                do { try StoreQueries.requireList(db, "nope", board: board) } catch { unknown = error }
            } == 0)
            #expect(boxes.map(\.kind) == ["box", "box"])
            #expect(unknown as? StoreError == .unknownList("nope"))
            // Read once, then remembered; the lists' counts came with the lists.
            var answers: [String?] = []
            var counts: [(list: String, count: Int)] = []
            #expect(try statements.during {
                counts = try tx.listCounts()
                answers.append(String(try tx.rowCount("people", nil)))
                answers.append(try tx.bound(before: nil, in: people, skipping: [])?.id)
                answers.append(try tx.bound(before: nil, in: people, skipping: ["e"])?.id)
            } == 2)
            let stored = try db.rows(sql: "SELECT listID, count FROM rowCount WHERE containerID = ''").map { ($0[0] as String, $0[1] as Int) }
            #expect(counts.map(\.list) == lists.map(\.id))
            #expect(counts.allSatisfy { list in list.count == (stored.first { $0.0 == list.list }?.1 ?? 0) })
            #expect(counts.contains { $0.list == "people" && $0.count == 5 })
            #expect(try statements.during {
                answers.append(String(try tx.rowCount("people", nil)))
                answers.append(try tx.bound(before: nil, in: people, skipping: ["e", "d"])?.id)  // one step more
            } == 1)
            #expect(answers == ["5", "e", "d", "5", "c"])

            // A write makes every answer old, except what the move itself wrote: the moved row, its
            // neighbours where it landed and the lists' counts. Each is checked against the database.
            try tx.move(["e"], to: Placement(listID: "links"))
            let links = Gap(listID: "links", containerID: nil)
            var moved: ItemRecord?
            var known: [String?] = []
            var countsAfter: [(list: String, count: Int)] = []
            #expect(try statements.during {
                moved = try StoreQueries.requireItem(db, "e")
                countsAfter = try tx.listCounts()
                known.append(String(try tx.rowCount("people", nil)))
                known.append(try tx.predecessor(of: "e"))
                known.append(try tx.bound(after: OrderBound(pos: moved?.pos ?? "", id: "e"), in: links, skipping: [])?.id)
                known.append(try tx.bound(before: nil, in: links, skipping: [])?.id)
            } == 0)
            // The list it left is read again.
            var last: String?
            #expect(try statements.during { last = try tx.bound(before: nil, in: people, skipping: [])?.id } == 1)
            #expect(last == "d")
            db.memo.forget()
            let asked: [String?] = [String(try tx.rowCount("people", nil)), try tx.predecessor(of: "e"),
                                    try tx.bound(after: OrderBound(pos: moved?.pos ?? "", id: "e"), in: links, skipping: [])?.id,
                                    try tx.bound(before: nil, in: links, skipping: [])?.id]
            #expect(known == asked && known[0] == "4" && known[3] == "e")
            let storedAfter = try db.rows(sql: "SELECT listID, count FROM rowCount WHERE containerID = ''").map { ($0[0] as String, $0[1] as Int) }
            #expect(countsAfter.map(\.list) == lists.map(\.id))
            #expect(countsAfter.allSatisfy { list in list.count == (storedAfter.first { $0.0 == list.list }?.1 ?? 0) })
            let row = try db.row(sql: "SELECT \(StoreQueries.itemColumns) FROM item WHERE id = ?", arguments: ["e"]).map(StoreQueries.item(from:))
            #expect(moved == row && moved?.listID == "links" && moved?.changedVersion == tx.newVersion)
        }
    }

    /// Rows named at once are read in one query, a missing one remembered as missing.
    @Test func rowsPrefetchedTogetherCostOneQuery() throws {
        let temp = try TempStore(engine: .sqlite)
        defer { temp.remove() }
        try temp.store.engine.write { db in
            let statements = Statements()
            try statements.watch(db)
            defer { statements.stop() }
            let tx = BoardTransaction(db: db, boardID: BoardStore.defaultBoardID, baseVersion: 0)
            #expect(try statements.during { try tx.prefetchItems(["a", "people", "e", "a"]) } == 1)
            var rows: [ItemRecord] = []
            var missing: (any Error)?
            #expect(try statements.during {
                rows = try ["a", "e"].map { try tx.item($0) }
                do { _ = try tx.item("people") } catch { missing = error }
            } == 0)
            #expect(rows.map(\.id) == ["a", "e"] && rows.map(\.listID) == ["people", "people"])
            #expect(missing as? StoreError == .unknownItem("people"))
        }
    }

    /// The bookkeeping of a change (version, undo, activity, operation record) writes none of the
    /// board's rows: the answer, rendered after it in the transaction, reads nothing the move knew.
    /// The operation records a batch read with its board's lock outlive the batch's moves (no move
    /// writes them): only the record an operation's own bookkeeping writes is forgotten.
    @Test func operationRecordsOutliveMovesAndTheirOwnBookkeepingForgetsThem() throws {
        let memo = ReadMemo()
        let record = OperationRecord(fingerprint: "f", response: "r", version: 3)
        memo.remember(Optional(record), for: OperationRecord.memoKey("op-1"), at: 0, scope: .operations)
        memo.remember(Optional<OperationRecord>.none, for: OperationRecord.memoKey("op-2"), at: 0, scope: .operations)
        memo.remember(1, for: "a row of people", at: 0, scope: .list("people"))
        memo.carry(from: 0, to: 1, sparing: RowWrite(lists: ["people"], kinds: ["person"]))
        #expect(memo.answer(OperationRecord.memoKey("op-1"), at: 1, as: OperationRecord?.self) == .some(record))
        #expect(memo.answer(OperationRecord.memoKey("op-2"), at: 1, as: OperationRecord?.self) == .some(nil))
        #expect(memo.answer("a row of people", at: 1, as: Int.self) == nil)
        // op-2's bookkeeping writes its record: what was remembered of it (none) is old.
        memo.carry(from: 1, to: 2, except: [OperationRecord.memoKey("op-2")])
        #expect(memo.answer(OperationRecord.memoKey("op-1"), at: 2, as: OperationRecord?.self) == .some(record))
        #expect(memo.answer(OperationRecord.memoKey("op-2"), at: 2, as: OperationRecord?.self) == nil)
        // Never kept beyond the transaction: it is about no one board.
        #expect(!MemoScope.operations.isWhollyAbout("demo", lists: ["people"]))
    }

    /// A move within a list writes the moved rows alone: the other rows of that list read before
    /// are still known (where they stand is not). A move to another list names no rows (it may carry
    /// nested ones): then every row of both lists is read again.
    @Test func aMoveWithinAListKeepsTheOtherRowsOfThatList() throws {
        let temp = try TempStore(engine: .sqlite)
        defer { temp.remove() }
        let statements = Statements()
        try temp.op { tx in
            try statements.watch(tx.db)
            defer { statements.stop() }
            #expect(try statements.during { _ = try tx.item("c") } == 1)
            try tx.move(["a"], to: Placement(listID: "people", index: 3))
            var c: ItemRecord?
            #expect(try statements.during { c = try tx.item("c"); _ = try tx.item("a") } == 0)
            #expect(c?.listID == "people")
            #expect(try tx.rows(in: "people").map(\.id) == ["b", "c", "a", "d", "e"])
            try tx.move(["b"], to: Placement(listID: "links"))
            #expect(try statements.during { c = try tx.item("c") } == 1)
            #expect(try statements.during { _ = try tx.item("b") } == 0)  // what it wrote
        }
        let memo = ReadMemo()
        memo.remember(1, for: "c", at: 0, scope: .item(id: "c", list: "people"))
        memo.remember(2, for: "a", at: 0, scope: .item(id: "a", list: "people"))
        memo.carry(from: 0, to: 1, sparing: RowWrite(lists: ["people"], kinds: ["person"], rows: ["a"]))
        #expect(memo.answer("c", at: 1, as: Int.self) == 1)
        #expect(memo.answer("a", at: 1, as: Int.self) == nil)
        memo.carry(from: 1, to: 2, sparing: RowWrite(lists: ["people"], kinds: ["person"]))
        #expect(memo.answer("c", at: 2, as: Int.self) == nil)
    }

    @Test func whatAMoveWroteIsKnownAfterItsBookkeeping() throws {
        let temp = try TempStore(engine: .sqlite)
        defer { temp.remove() }
        let statements = Statements()
        let seen = Mutex<(count: Int, row: ItemRecord?, version: Int?)>((0, nil, nil))
        let result = try temp.store.perform(board: BoardStore.defaultBoardID, operationID: "op-1", fingerprint: "f", stored: { $0 }, prepare: { _ in },
                                            committed: { tx, response in
            let row = try statements.during { _ = try tx.item("e") }
            statements.stop()
            seen.withLock { $0 = (row, try? tx.item("e"), try? StoreQueries.version(tx.db, board: tx.boardID)) }
            return { response }
        }) { tx in
            try statements.watch(tx.db)
            tx.recordUndo(for: "someone", actionName: "Move")
            try tx.move(["e"], to: Placement(listID: "links"))
            return "moved"
        }
        let stored = try temp.store.rows(in: "links").first { $0.id == "e" }
        seen.withLock { seen in
            #expect(seen.count == 0)
            #expect(seen.row == stored && stored?.changedVersion == result.version)
            #expect(seen.version == result.version)  // the version is read again: the bookkeeping changed it
        }
    }
}
