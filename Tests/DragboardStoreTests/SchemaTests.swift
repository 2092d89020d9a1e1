@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// Both engines arrive at the one described schema (``StoreSchema``): a new database on the
/// engine of the pass, and a SQLite file written by the first version and migrated since.
@Suite struct SchemaTests {
    @Test func aNewDatabaseHasTheDescribedTablesAndColumns() throws {
        let t = try TempStore(seeded: false)
        defer { t.remove() }
        try Self.expectDescribed(try Self.columns(of: t.store))
    }

    @Test func aSQLiteFileOfTheFirstVersionMigratesToTheDescribedSchema() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("v1.sqlite").path
        // What the first version left: its migration alone, and GRDB's record of it.
        let queue = try DatabaseQueue(path: path)
        try SQLiteEngine.migrator.migrate(queue, upTo: "v1")
        #expect(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == ["v1"])
        try queue.close()
        try Self.expectDescribed(try Self.columns(of: try BoardStore(path: path)))
    }

    /// Every change writes its board's version, activity and step: an index over one of them
    /// would be written by every change too (a page more in SQLite's log each time) and, on
    /// PostgreSQL, keep each update of that row from being heap-only, so the row's indexes would
    /// grow by an entry per change.
    @Test func aChangeWritesNoIndexOfItsBoardsRow() throws {
        let t = try TempStore()
        defer { t.remove() }
        let isSQLite = t.store.engine is SQLiteEngine
        let indexed = try t.store.engine.read { db in
            try db.rows(sql: isSQLite
                ? "SELECT i.name FROM pragma_index_list('board') l, pragma_index_info(l.name) i"
                : """
                    SELECT a.attname::text FROM pg_index x JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey)
                    WHERE x.indrelid = 'board'::regclass
                    """).map { (row: SQLRow) -> String in row[0] }
        }
        #expect(!indexed.isEmpty)  // its primary key at least: the query reads what it should
        #expect(Set(indexed.map { $0.lowercased() }).isDisjoint(with: ["version", "activity", "changed"]), "\(indexed)")
        guard !isSQLite else { return }
        // What PostgreSQL did with the row in this transaction: updates, every one heap-only.
        let counts = try t.store.engine.write { db in
            try db.execute(sql: BoardStore.setVersionSQL, arguments: [7, Date().timeIntervalSince1970, "a step", BoardStore.defaultBoardID])
            let row = try #require(try db.row(sql: "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'board'"))
            return [row[0] as Int, row[1] as Int]
        }
        #expect(counts[0] >= 1 && counts[1] == counts[0], "\(counts)")
    }

    /// Every change adds an undo entry, and an entry goes into every index of the history: only
    /// those its queries walk are kept (newest first by owner, and by age for the pruning).
    @Test func theUndoHistoryHasTheIndexesItsQueriesWalkAndNoOther() throws {
        let t = try TempStore(seeded: false)
        defer { t.remove() }
        let names = try t.store.engine.read { db in
            try db.rows(sql: t.store.engine is SQLiteEngine
                ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'undoEntry' AND sql IS NOT NULL"
                : "SELECT indexname::text FROM pg_indexes WHERE tablename = 'undoentry' AND indexname::text NOT LIKE '%pkey'")
                .map { (row: SQLRow) -> String in (row[0] as String).lowercased() }
        }
        #expect(Set(names) == ["undoentry_owner_undone", "undoentry_createdat"])
    }

    /// Table → columns as the engine reports them (bookkeeping tables left out).
    static func columns(of store: BoardStore) throws -> [String: [StoreSchema.Column]] {
        try store.engine.read { db in
            let isSQLite = store.engine is SQLiteEngine
            let rows = isSQLite
                ? try db.rows(sql: """
                    SELECT m.name, p.name, p.type, p."notnull", p.pk FROM sqlite_master m, pragma_table_info(m.name) p
                    WHERE m.type = 'table' ORDER BY m.name, p.cid
                    """)
                : try db.rows(sql: """
                    SELECT table_name, column_name, data_type, CASE is_nullable WHEN 'NO' THEN 1 ELSE 0 END, 0
                    FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
                    """)
            var tables: [String: [StoreSchema.Column]] = [:]
            for row in rows {
                let table: String = row[0], name: String = row[1], declared: String = row[2]
                let notNull: Int = row[3], primaryKey: Int = row[4]
                guard !StoreSchema.bookkeepingTables.contains(table.lowercased()) else { continue }
                let type: StoreSchema.ColumnType = switch declared.uppercased() {
                case "INTEGER", "BIGINT": .integer
                case "REAL", "DOUBLE PRECISION": .real
                default: .text  // TEXT, and SQLite's DATETIME (the store writes dates as text)
                }
                // SQLite lets a primary key column of a table with a rowid hold NULL unless it says NOT NULL.
                tables[table.lowercased(), default: []].append(StoreSchema.Column(name: name.lowercased(), type: type, nullable: notNull == 0 && primaryKey == 0))
            }
            return tables
        }
    }

    static func expectDescribed(_ found: [String: [StoreSchema.Column]], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let described = Dictionary(uniqueKeysWithValues: StoreSchema.tables.map { table, columns in
            (table.lowercased(), columns.map { StoreSchema.Column(name: $0.name.lowercased(), type: $0.type, nullable: $0.nullable) })
        })
        #expect(Set(found.keys) == Set(described.keys), sourceLocation: sourceLocation)
        for (table, columns) in described {
            let extra = StoreSchema.engineOnlyColumns[table] ?? []
            #expect(found[table]?.filter { !extra.contains($0.name) } == columns, "\(table)", sourceLocation: sourceLocation)
        }
    }
}
