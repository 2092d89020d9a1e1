@testable import DragboardStore
import Foundation
import GRDB
@testable import Dragboard
@testable import DragboardPostgres

/// A store in a fresh database: a real SQLite file in a temporary directory, or, when the suite
/// runs against PostgreSQL (see ``TestEngine``), a new database on the test server.
struct TempStore {
    let directory: URL
    /// The SQLite file, or the PostgreSQL URL.
    let path: String
    let store: BoardStore

    init(seeded: Bool = true, engine: TestEngine = .pass) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dragboard-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = try engine.newDatabase(in: directory)
        store = try BoardStore(database: path)
        if seeded { try Self.seed(store) }
    }

    /// people: a b c d e · links: l1 l2 · boxes: box1 [t1 t2], box2 [] · empty: —
    static func seed(_ store: BoardStore) throws {
        func items(_ ids: [String], kind: String = "person") -> [NewItem] {
            ids.map { NewItem(id: $0, kind: kind, title: $0.uppercased(), payload: #"{"age":34}"#) }
        }
        try store.seedIfEmpty([
            (ListRecord(id: "people", title: "People", kind: "people", position: 0), items(["a", "b", "c", "d", "e"])),
            (ListRecord(id: "links", title: "Links", kind: "links", position: 1), items(["l1", "l2"], kind: "link")),
            (ListRecord(id: "boxes", title: "Boxes", kind: "boxes", position: 2), items(["box1", "box2"], kind: "box")),
            (ListRecord(id: "empty", title: "Empty", kind: "people", position: 3), []),
        ], containers: ["box1": items(["t1", "t2"], kind: "toy")])
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
        TestEngine.dropDatabase(path)
    }

    func ids(_ listID: String) throws -> [String] { try store.rows(in: listID).map(\.id) }

    /// rowid, id and pos of every item row, keyed by id (on PostgreSQL, which has no stable row
    /// address, every rowid reads 0 and only the keys are compared).
    func physicalRows() throws -> [String: (rowid: Int64, pos: String)] {
        guard store.engine is SQLiteEngine else {
            return try store.engine.read { db in
                var result: [String: (rowid: Int64, pos: String)] = [:]
                for row in try db.rows(sql: "SELECT id, pos FROM item") {
                    result[row[0]] = (0, row[1])
                }
                return result
            }
        }
        return try store.dbPool.read { db in
            var result: [String: (rowid: Int64, pos: String)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid, id, pos FROM item") {
                result[row[1]] = (row[0], row[2])
            }
            return result
        }
    }

    /// Performs `body` under a fresh operation id.
    @discardableResult
    func op(_ body: (BoardTransaction) throws -> Void) throws -> OperationResult {
        try store.perform(operationID: UUID().uuidString, fingerprint: "f") { tx in
            try body(tx)
            return "ok"
        }
    }
}

/// The SQLite engine's parts, for tests that look at the file itself (plans, pragmas, batches).
extension BoardStore {
    var sqlite: SQLiteEngine { engine as! SQLiteEngine }
    var dbPool: DatabasePool { sqlite.dbPool }
    var groupCommit: GroupCommit { sqlite.groupCommit }
    static var migrator: DatabaseMigrator { SQLiteEngine.migrator }
}

/// Runs `body` on a thread of its own, inside `group` when one is given. Tests that block threads
/// on purpose use it rather than Dispatch's global queue: on Linux that pool grows only slowly
/// past the core count, so on a loaded machine a blocked test's work could wait for a thread
/// longer than the test waits for the work.
func onOwnThread(_ group: DispatchGroup? = nil, _ body: @escaping @Sendable () -> Void) {
    group?.enter()
    Thread {
        body()
        group?.leave()
    }.start()
}
