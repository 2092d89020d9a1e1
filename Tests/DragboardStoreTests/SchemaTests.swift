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
