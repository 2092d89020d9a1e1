import DragboardStore
import Logging

extension PostgresEngine {
    /// Creates an empty database `name` on the server `url` points at, and returns its URL (the
    /// test suites give every store a database of its own).
    static func createDatabase(named name: String, besides url: PostgresURL) throws -> PostgresURL {
        try administer(url, "CREATE DATABASE \"\(name)\"")
        var created = url
        created.database = name
        return created
    }

    /// Drops a database, ending the sessions still connected to it.
    static func dropDatabase(_ url: PostgresURL, on server: PostgresURL) throws {
        try administer(server, "DROP DATABASE IF EXISTS \"\(url.database)\" WITH (FORCE)")
    }

    /// One connection to `url` apart from any store's (close it after use).
    static func administration(of url: PostgresURL) throws -> PostgresConnectionPool {
        try PostgresConnectionPool(url: url, maximumConnections: 1, logger: Logger(label: "dragboard.postgres.admin"))
    }

    private static func administer(_ server: PostgresURL, _ statement: String) throws {
        let pool = try administration(of: server)
        defer { pool.close() }
        try pool.withConnection { pooled in
            try PostgresSQLConnection(pooled, dialect: PostgresDialect(), logger: Logger(label: "dragboard.postgres.admin"))
                .execute(sql: statement)
        }
    }
}
