@testable import DragboardStore
import Dragboard
import Foundation
import Testing

/// On PostgreSQL a change's bookkeeping (``SQLConnection/executeTogether(_:)``) is prepared once per
/// connection with its arguments' types, and means what it meant unprepared.
@Suite struct TypedStatementTests {
    /// Two changes on one connection: the second runs the statement the first prepared (PostgreSQL
    /// lists it, with its placeholders cast), and both committed.
    @Test func aChangesBookkeepingIsPreparedOnceAndRunsAgain() throws {
        let t = try TempStore(engine: .postgres)
        defer { t.remove() }
        try t.op { try $0.setTitle("a", "First") }
        try t.op { try $0.setTitle("a", "Second") }
        let prepared = try t.store.engine.write { db in
            try db.fetchAll(String.self, sql: "SELECT statement FROM pg_prepared_statements WHERE statement LIKE ?", arguments: ["WITH w0 AS (UPDATE board SET version%"])
        }
        #expect(prepared.count == 1)
        #expect(prepared.first?.contains("version = $1::bigint") == true)
        #expect(try t.store.items(["a"])[0].title == "Second")
        #expect(try t.store.version() == 3)
    }

    /// A NULL argument's type is PostgreSQL's to infer: the same statement with a NULL and then a value
    /// in that place are two prepared statements, and each does what it says.
    @Test(arguments: [TestEngine.sqlite, .postgres])
    func aNullAndAValueInOnePlaceBothWork(engine: TestEngine) throws {
        let t = try TempStore(engine: engine)
        defer { t.remove() }
        let activity = "SELECT activity FROM board WHERE id = ?"
        let setActivity = "UPDATE board SET activity = COALESCE(?, activity) WHERE id = ?"
        let (before, kept, set) = try t.store.engine.write { db in
            let before = try db.fetchOne(Double.self, sql: activity, arguments: [BoardStore.defaultBoardID])
            try db.executeTogether([SQLWrite(setActivity, [nil, BoardStore.defaultBoardID])])
            let kept = try db.fetchOne(Double.self, sql: activity, arguments: [BoardStore.defaultBoardID])
            try db.executeTogether([SQLWrite(setActivity, [12345.5, BoardStore.defaultBoardID])])
            return (before, kept, try db.fetchOne(Double.self, sql: activity, arguments: [BoardStore.defaultBoardID]))
        }
        #expect(kept == before)
        #expect(set == 12345.5)
    }
}
