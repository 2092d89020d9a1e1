@testable import DragboardStore
import Dragboard
import Testing

/// Reads a drop cycle asks together, in one statement each (a round trip each on PostgreSQL), and
/// answer as the separate reads did.
@Suite struct RoundTripTests {
    typealias Statements = ReadMemoTests.Statements

    /// `body` in a read transaction of `store`, with what it runs counted from the start.
    func countingRead(_ store: BoardStore, _ body: (BoardTransaction, Statements) throws -> Void) throws {
        let statements = Statements()
        try store.read { (tx: BoardTransaction) throws -> Void in
            try statements.watch(tx.db)
            defer { statements.stop() }
            try body(tx, statements)
        }
    }

    /// A drag start's row, its index and its neighbours come in one query; a row that is not a
    /// top-level row of the list has no index.
    @Test func aRowAndItsIndexComeInOneQuery() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        try countingRead(t.store) { (tx, statements) throws in
            var indexes: [Int?] = []
            #expect(try statements.during { indexes.append(try tx.index(of: "c", in: "people")) } == 1)
            // The row, its index and the rows beside it (where the drop that moves it records it was).
            var around: (before: OrderBound?, after: OrderBound?) = (nil, nil)
            #expect(try statements.during {
                indexes.append(try tx.index(of: "c", in: "people"))
                let c = try tx.item("c")
                around = try tx.bounds(around: OrderBound(pos: c.pos, id: c.id), in: Gap(listID: "people", containerID: nil))
            } == 0)
            #expect(around.before?.id == "b" && around.after?.id == "d")
            #expect(try statements.during { indexes.append(try tx.index(of: "t1", in: "boxes")) } == 1)  // in a box
            #expect(try statements.during { indexes.append(try tx.index(of: "l1", in: "people")) } == 1)  // another list
            #expect(try statements.during { indexes.append(try tx.index(of: "nobody", in: "people")) } == 1)
            #expect(indexes == [2, 2, nil, nil, nil])
        }
    }

    /// A drop's rows read at once: the dragged and hovered rows with their places (index and both
    /// neighbours) and the plain ones, in one query, after which none of it is asked again.
    @Test func rowsWithTheirPlacesComeInOneQuery() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        try countingRead(t.store) { (tx, statements) throws in
            #expect(try statements.during {
                try tx.prefetchItems(["c", "l2", "t1", "nobody", "gone"], indexed: ["c": "people", "l2": "links", "t1": "boxes", "gone": "people"])
            } == 1)
            var answers: [String?] = []
            #expect(try statements.during {
                answers = [try tx.index(of: "c", in: "people").map(String.init), try tx.predecessor(of: "c"),
                           try tx.index(of: "l2", in: "links").map(String.init), try tx.predecessor(of: "l2"),
                           try tx.item("t1").containerID, (try? tx.item("nobody"))?.id, (try? tx.item("gone"))?.id]
                let c = try tx.item("c")
                let around = try tx.bounds(around: OrderBound(pos: c.pos, id: c.id), in: Gap(listID: "people", containerID: nil))
                answers += [around.before?.id, around.after?.id]
            } == 0)
            #expect(answers == ["2", "b", "1", "l1", "box1", nil, nil, "b", "d"])
            // Known places are not read again; one row alone is the place query itself.
            #expect(try statements.during { try tx.prefetchItems(["c", "l2"], indexed: ["c": "people", "l2": "links"]) } == 0)
            #expect(try statements.during { try tx.prefetchItems(["d", "c"], indexed: ["d": "people"]) } == 1)
            #expect(try statements.during { _ = try tx.index(of: "d", in: "people"); _ = try tx.predecessor(of: "d") } == 0)
        }
    }

    /// A dragged row's neighbours (where it was, for undo) come along with a query sent anyway, and
    /// are left to the journal's own lighter query when nothing else is asked.
    @Test func aLeavingRowsNeighboursComeAlongOnlyWithAQuerySentAnyway() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let people = Gap(listID: "people", containerID: nil)
        try countingRead(t.store) { (tx, statements) throws in
            _ = try tx.item("b")  // the row is known, the rows beside it are not
            #expect(try statements.during { try tx.prefetchItems(["b"], indexed: [:], leaving: ["b": "people"]) } == 0)
            #expect(try statements.during { try tx.prefetchItems(["b", "l2"], indexed: ["l2": "links"], leaving: ["b": "people"]) } == 1)
            var around: (before: OrderBound?, after: OrderBound?) = (nil, nil)
            #expect(try statements.during {
                let b = try tx.item("b")
                around = try tx.bounds(around: OrderBound(pos: b.pos, id: b.id), in: people)
            } == 0)
            #expect(around.before?.id == "a" && around.after?.id == "c")
            // Not counted: its index is asked on its own.
            var index: Int?
            #expect(try statements.during { index = try tx.index(of: "b", in: "people") } > 0)
            #expect(index == 1)
            // A row not known at all is read anyway, with its neighbours.
            #expect(try statements.during { try tx.prefetchItems(["e"], indexed: [:], leaving: ["e": "people"]) } == 1)
            #expect(try statements.during { _ = try tx.predecessor(of: "e") } == 0)
        }
    }

    /// What the prefetch keeps answers as reading each thing on its own does, on either engine
    /// (PostgreSQL types the place-less rows' columns from the placed ones), a row past the 64 the
    /// place query counts ahead included.
    @Test func rowsPrefetchedWithTheirPlacesAnswerAsTheirOwnReads() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { tx in _ = try tx.insert((0..<100).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "empty")) }
        func answers(prefetching: Bool) throws -> [String?] {
            try t.store.read { tx in
                if prefetching {
                    try tx.prefetchItems(["r80", "r0", "e", "t2", "nobody", "r50"], indexed: ["r80": "empty", "r0": "empty", "e": "people"],
                                         leaving: ["r50": "empty"])
                }
                return [try tx.index(of: "r80", in: "empty").map(String.init), try tx.predecessor(of: "r80"),
                        try tx.index(of: "r0", in: "empty").map(String.init), try tx.predecessor(of: "r0"),
                        try tx.index(of: "e", in: "people").map(String.init), try tx.predecessor(of: "e"),
                        try tx.item("t2").title, (try? tx.item("nobody"))?.id, try tx.predecessor(of: "r50"), try tx.index(of: "r50", in: "empty").map(String.init)]
            }
        }
        #expect(try answers(prefetching: true) == answers(prefetching: false))
        #expect(try answers(prefetching: false) == ["80", "r79", "0", nil, "4", "d", "T2", nil, "r49", "50"])
    }

    /// A drag of 500 rows (the most a drag carries) names them all: the first few come with their
    /// places, the rest as rows alone, in one query still (SQLite allows 500 terms in a compound SELECT).
    @Test func fiveHundredRowsPrefetchedTogetherStayOneQuery() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { tx in _ = try tx.insert((0..<500).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "empty")) }
        let ids = (0..<500).map { "r\($0)" }
        try t.store.read { (tx: BoardTransaction) throws -> Void in
            try tx.prefetchItems(ids + ["box1"], indexed: Dictionary(uniqueKeysWithValues: ids.map { ($0, "empty") }),
                                 leaving: Dictionary(uniqueKeysWithValues: ids.map { ($0, "empty") }))
            #expect(try [0, 7, 8, 499].map { try tx.index(of: "r\($0)", in: "empty") } == [0, 7, 8, 499])
            #expect(try tx.item("box1").title == "BOX1")
        }
        let sqlite = try TempStore(engine: .sqlite)
        defer { sqlite.remove() }
        try sqlite.op { tx in _ = try tx.insert((0..<500).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "empty")) }
        try countingRead(sqlite.store) { (tx, statements) throws in
            #expect(try statements.during {
                try tx.prefetchItems(ids + ["box1"], indexed: Dictionary(uniqueKeysWithValues: ids.map { ($0, "empty") }))
            } == 1)
            #expect(try statements.during { _ = try tx.index(of: "r3", in: "empty"); _ = try tx.item("r400") } == 0)
        }
    }

    /// Past the rows the query counts ahead of a row (64), the index is counted from the nearer end:
    /// every row of a long list, each in a transaction of its own, on either engine.
    @Test func everyRowOfALongListHasItsIndex() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { tx in _ = try tx.insert((0..<150).map { NewItem(id: "r\($0)", kind: "person", title: "R") }, at: Placement(listID: "empty")) }
        try t.op { tx in try tx.move(["r3", "r120"], to: Placement(listID: "empty", index: 70)) }
        let ids = try t.ids("empty")
        for (index, id) in ids.enumerated() {
            try t.store.read { (tx: BoardTransaction) throws -> Void in #expect(try tx.index(of: id, in: "empty") == index, "\(id)") }
        }
        try t.store.read { (tx: BoardTransaction) throws -> Void in #expect(try tx.index(of: "r3", in: "people") == nil) }
    }

    /// The undo journal's "where it was" of a moved row: both neighbours in one query, the same as
    /// stepping to each.
    @Test func bothNeighboursOfARowComeInOneQuery() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let statements = Statements()
        let people = Gap(listID: "people", containerID: nil)
        try t.store.read { tx in
            let rows = try tx.rows(in: "people").map { OrderBound(pos: $0.pos, id: $0.id) }
            try statements.watch(tx.db)
            defer { statements.stop() }
            for (index, row) in rows.enumerated() {
                var around: (before: OrderBound?, after: OrderBound?) = (nil, nil)
                #expect(try statements.during { around = try tx.bounds(around: row, in: people) } == 1)
                #expect(around.before == (index > 0 ? rows[index - 1] : nil) && around.after == (index + 1 < rows.count ? rows[index + 1] : nil))
                var stepped: (before: OrderBound?, after: OrderBound?) = (nil, nil)
                #expect(try statements.during {
                    stepped = (try tx.bound(before: row, in: people, skipping: []), try tx.bound(after: row, in: people, skipping: []))
                } == 0)
                #expect(stepped.before == around.before && stepped.after == around.after)
            }
        }
    }

    /// A drop's source named by a list's id is that list: no row is looked up under it.
    @Test func aListIdIsReadAsNoRow() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let statements = Statements()
        let kit = BoardKit(lists: [])
        try t.store.read { tx in
            _ = try tx.lists()
            try statements.watch(tx.db)
            defer { statements.stop() }
            var container: ItemRecord?
            #expect(try statements.during {
                container = try tx.contentsListContainer("people", kit: kit)
                try tx.prefetchRows(["people", "a"])
                _ = try tx.item("a")
            } == 1)  // the row a alone
            #expect(container == nil)
        }
    }

    /// A write says how many rows it changed, on either engine, each time it runs.
    @Test func aWriteSaysHowManyRowsItChanged() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.store.engine.write { db in
            var changed: [Int] = []
            for _ in 0..<2 {
                try db.execute(sql: "UPDATE item SET title = ? WHERE listID = ?", arguments: ["Same", "links"])
                changed.append(db.changesCount)
                try db.execute(sql: "UPDATE item SET title = ? WHERE listID = ?", arguments: ["Same", "nowhere"])
                changed.append(db.changesCount)
                let before = db.totalChangesCount
                try db.execute(sql: "INSERT INTO operation (id, fingerprint, response, version, createdAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                               arguments: ["op", "f", "r", 1, 0.0])
                changed.append(db.changesCount)
                changed.append(db.totalChangesCount - before)
            }
            #expect(changed == [2, 0, 1, 1, 2, 0, 0, 0])  // the second insert finds its id taken
        }
    }

    /// A drag start's read, led by the board's state with the picked row and its place, answers as a
    /// plain read does: the row's index, nothing for a row of another list or none, an unknown board.
    @Test func aReadLedByThePickedRowAnswersAsAPlainRead() throws {
        let t = try TempStore()
        defer { t.remove() }
        try t.op { tx in try tx.move(["b"], to: Placement(listID: "links", index: 1)) }
        func both(_ id: String, _ list: String) throws -> [String] {
            let ask = { (tx: BoardTransaction) throws -> String in
                "\(tx.baseVersion) \(try tx.index(of: id, in: list).map(String.init) ?? "-") \(try tx.rowCount(in: list))"
            }
            return [try t.store.read(board: BoardStore.defaultBoardID, picking: id, inList: list, ask), try t.store.read(ask)]
        }
        for (id, list) in [("c", "people"), ("b", "links"), ("l2", "links"), ("c", "links"), ("nobody", "people"), ("t1", "boxes")] {
            let answers = try both(id, list)
            #expect(answers[0] == answers[1], "\(id) in \(list)")
        }
        #expect(throws: StoreError.unknownBoard("nope")) { try t.store.read(board: "nope", picking: "a", inList: "people") { _ in 0 } }
    }

    /// On PostgreSQL the led read runs alone, and the rest from memory: a question memory cannot
    /// answer makes it run again in a transaction, even where the caller took the refusal for "none".
    @Test func aQuestionMemoryCannotAnswerRunsTheReadAgain() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        let title = try t.store.read(board: BoardStore.defaultBoardID, picking: "a", inList: "people") { tx in (try? tx.item("l1"))?.title }
        #expect(title == "L1")
        let lists = try t.store.read(board: BoardStore.defaultBoardID, picking: "a", inList: "people") { tx in try tx.lists().map(\.id) }
        #expect(lists == ["people", "links", "boxes", "empty"])
    }
}
