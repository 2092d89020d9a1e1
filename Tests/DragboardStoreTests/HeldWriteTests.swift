@testable import DragboardStore
import Dragboard
import Foundation
import Testing

/// `executeSoon`: a write an engine may hold and send with the next statement (PostgreSQL sends a
/// drop's `UPDATE item` with the operation's bookkeeping). Whatever it holds, the transaction reads
/// and commits as if the write had run at once; work that fails takes its held write with it.
@Suite struct HeldWriteTests {
    static let renameA = SQLWrite("UPDATE item SET title = ? WHERE id = ?", ["Renamed", "a"])

    static func title(_ db: any SQLConnection, _ id: String = "a") throws -> String? {
        try db.fetchOne(String.self, sql: "SELECT title FROM item WHERE id = ?", arguments: [id])
    }

    /// A row as committed, read in a transaction of its own.
    static func item(_ id: String, in t: TempStore) throws -> ItemRecord {
        try t.store.read { (tx: BoardTransaction) in try tx.item(id) }
    }

    /// Counted at once, and read back by the next query of the same transaction.
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func theNextReadSeesAHeldWrite(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let seen = try t.store.engine.write { db in
            let before = db.totalChangesCount
            try db.executeSoon(Self.renameA)
            #expect(db.totalChangesCount == before + 1)
            return try Self.title(db)
        }
        #expect(seen == "Renamed")
        #expect(try Self.item("a", in: t).title == "Renamed")
    }

    /// Sent with the statements that follow it together, in order before them, and committed with them.
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aHeldWriteGoesWithTheNextWritesTogether(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        try t.store.engine.write { db in
            try db.executeSoon(Self.renameA)
            try db.executeSoon(SQLWrite("UPDATE item SET title = ? WHERE id = ?", ["Second", "b"]))
            try db.executeTogether([SQLWrite("UPDATE item SET payload = ? WHERE id = ?", ["{}", "c"])])
        }
        #expect(try Self.item("a", in: t).title == "Renamed")
        #expect(try Self.item("b", in: t).title == "Second")
        #expect(try Self.item("c", in: t).payload == "{}")
    }

    /// The last statement of a transaction is still sent before it commits.
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aWriteHeldToTheEndCommits(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        try t.store.engine.write { db in try db.executeSoon(Self.renameA) }
        #expect(try Self.item("a", in: t).title == "Renamed")
    }

    /// Work that throws after holding a write leaves nothing of it: SQLite rolls back to the
    /// savepoint, PostgreSQL drops the write unsent (and rolls the transaction back, since it counts
    /// as written).
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func failedWorkTakesItsHeldWriteWithIt(engine: TestEngine) throws {
        struct Refused: Error {}
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        do {
            try t.store.engine.write { db in
                do {
                    try db.inSavepoint {
                        try db.executeSoon(Self.renameA)
                        throw Refused()
                    }
                } catch is Refused {}
                #expect(try Self.title(db, "b") == "B")  // sends nothing held
            }
        } catch is Refused {
            #expect(engine == .postgres)  // the transaction could only roll back
        }
        #expect(try Self.item("a", in: t).title == "A")
    }

    /// A same-list drop on PostgreSQL holds its row's write; the move, its undo and its answer still
    /// read the row where it went.
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aMoveWithinAListReadsWhereItsRowWent(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let result = try t.store.perform(operationID: "move-a", fingerprint: "f") { tx in
            try tx.move(["a"], to: Placement(listID: "people", index: 3))
            return try tx.rows(in: "people").map(\.id).joined(separator: " ")
        }
        #expect(result.response == "b c a d e")  // before the row at index 3 (d)
        #expect(try t.ids("people") == ["b", "c", "a", "d", "e"])
    }
}
