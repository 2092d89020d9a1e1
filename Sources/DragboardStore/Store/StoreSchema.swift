/// The store's tables as both engines keep them, described once: each engine's migrations
/// (append-only, in its own dialect: SQLite's `SQLiteEngine.migrator`, PostgreSQL's
/// `PostgresEngine.migrations`) must arrive at exactly these columns, which the store suites
/// check on a new database of either engine and on a SQLite file migrated from the first version.
package enum StoreSchema {
    /// How a column stores its values (SQLite's affinities; PostgreSQL's TEXT, BIGINT, DOUBLE PRECISION).
    package enum ColumnType: String, Sendable {
        case text, integer, real
    }

    package struct Column: Sendable, Equatable {
        package var name: String
        package var type: ColumnType
        package var nullable = false
    }

    /// Table name → its columns in order. Column names compare case-insensitively (PostgreSQL
    /// folds unquoted names to lower case).
    package static let tables: [String: [Column]] = [
        "board": [
            Column(name: "id", type: .text), Column(name: "version", type: .integer),
            Column(name: "title", type: .text), Column(name: "activity", type: .real),
            Column(name: "color", type: .text), Column(name: "labels", type: .text),
            Column(name: "incarnation", type: .text), Column(name: "changed", type: .text, nullable: true),
        ],
        "list": [
            Column(name: "id", type: .text), Column(name: "title", type: .text), Column(name: "kind", type: .text),
            Column(name: "position", type: .integer), Column(name: "boardID", type: .text),
        ],
        "item": [
            Column(name: "id", type: .text), Column(name: "listID", type: .text), Column(name: "containerID", type: .text, nullable: true),
            Column(name: "pos", type: .text), Column(name: "kind", type: .text), Column(name: "title", type: .text),
            Column(name: "payload", type: .text), Column(name: "changedVersion", type: .integer),
        ],
        "operation": [
            Column(name: "id", type: .text), Column(name: "fingerprint", type: .text), Column(name: "response", type: .text),
            Column(name: "version", type: .integer), Column(name: "createdAt", type: .text),
        ],
        "zoneImage": [
            Column(name: "id", type: .text), Column(name: "zoneID", type: .text), Column(name: "name", type: .text),
            Column(name: "mimeType", type: .text), Column(name: "size", type: .integer), Column(name: "createdVersion", type: .integer),
        ],
        "zoneLabel": [Column(name: "zoneID", type: .text), Column(name: "text", type: .text)],
        "undoEntry": [
            Column(name: "seq", type: .integer), Column(name: "owner", type: .text), Column(name: "board", type: .text),
            Column(name: "actionName", type: .text), Column(name: "changes", type: .text), Column(name: "undone", type: .integer),
            Column(name: "createdAt", type: .text),
        ],
        "rowCount": [Column(name: "listID", type: .text), Column(name: "containerID", type: .text), Column(name: "count", type: .integer)],
        "account": [
            Column(name: "id", type: .text), Column(name: "name", type: .text), Column(name: "nameKey", type: .text),
            Column(name: "passwordHash", type: .text), Column(name: "isAdmin", type: .integer), Column(name: "createdAt", type: .real),
        ],
        "signIn": [
            Column(name: "digest", type: .text), Column(name: "accountID", type: .text), Column(name: "csrf", type: .text),
            Column(name: "createdAt", type: .real), Column(name: "lastSeen", type: .real),
        ],
        "member": [Column(name: "boardID", type: .text), Column(name: "accountID", type: .text), Column(name: "role", type: .text)],
        "activity": [
            Column(name: "seq", type: .integer), Column(name: "boardID", type: .text), Column(name: "version", type: .integer),
            Column(name: "author", type: .text), Column(name: "words", type: .text), Column(name: "createdAt", type: .real),
        ],
    ]

    /// Columns one engine keeps beyond the description, and why: PostgreSQL's `item.scope` is
    /// `COALESCE(containerID, '')`, generated, so an index and a unique constraint can use it.
    package static let engineOnlyColumns: [String: Set<String>] = ["item": ["scope"]]

    /// Tables the engines keep for their own bookkeeping (migrations applied, autoincrement).
    package static let bookkeepingTables: Set<String> = ["grdb_migrations", "sqlite_sequence", "dragboardmigration"]
}
