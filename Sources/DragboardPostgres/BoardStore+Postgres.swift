import DragboardStore
import Foundation

extension BoardStore {
    /// Opens the store `database` names: a `postgres://user:password@host:port/dbname` URL
    /// (PostgreSQL, shared by every instance given the same URL; `?sslmode=disable|require|verify-full`
    /// says how it is reached), or else a SQLite file path. Creates and migrates the schema either way.
    ///
    /// - Throws: ``StoreError/invalid(_:)`` for a URL that does not parse, or the engine's
    ///   error when the database cannot be reached or opened.
    public convenience init(database: String, operationRetention: TimeInterval = 24 * 3600) throws {
        if let url = try PostgresURL.parse(database) {
            try self.init(engine: PostgresEngine(url: url), operationRetention: operationRetention)
        } else {
            try self.init(path: database, operationRetention: operationRetention)
        }
    }
}
