import Foundation
import GRDB

extension BoardStore {
    /// Copies the database to a new SQLite file at `path` while it serves, consistently: SQLite's
    /// online backup copies one snapshot, whatever commits meanwhile (GRDB's `backup(to:)`).
    /// - Throws: ``StoreError/invalid(_:)`` for a PostgreSQL store (use `pg_dump`) or when `path` exists.
    public func backup(to path: String) throws {
        guard let sqlite = engine as? SQLiteEngine else {
            throw StoreError.invalid("this database is PostgreSQL: back it up with pg_dump (docs/operating.md)")
        }
        guard !FileManager.default.fileExists(atPath: path) else { throw StoreError.invalid("\(path) already exists; name a new file") }
        let copy = try DatabaseQueue(path: path)
        try sqlite.dbPool.backup(to: copy)
        try copy.close()
    }

    /// Replaces the SQLite database at `databasePath` with the backup at `backupPath` (checked whole
    /// first). Stop the server on that database before: its caches would not see the change.
    public static func restore(backup backupPath: String, into databasePath: String) throws {
        let source: DatabaseQueue
        let check: String?
        do {
            source = try DatabaseQueue(path: backupPath, configuration: { var config = Configuration(); config.readonly = true; return config }())
            check = try source.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        } catch {
            throw StoreError.invalid("\(backupPath) is not a readable SQLite database; nothing was restored")
        }
        guard check == "ok" else { throw StoreError.invalid("\(backupPath) is damaged (\(check ?? "no answer")); nothing was restored") }
        guard try source.read({ try $0.tableExists("board") && $0.tableExists("item") }) else {
            throw StoreError.invalid("\(backupPath) is not a Dragboard database; nothing was restored")
        }
        let target = try DatabasePool(path: databasePath)
        try source.backup(to: target)
        try target.close()
        try source.close()
    }
}
