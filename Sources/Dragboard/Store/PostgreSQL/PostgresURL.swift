import Foundation

/// Where a PostgreSQL database is: `postgres://user:password@host:port/dbname` (also
/// `postgresql://`), as ``BoardStore/init(database:operationRetention:)`` takes it.
struct PostgresURL: Sendable, Equatable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String

    /// Nil when `string` is not a PostgreSQL URL at all (a file path, say).
    /// - Throws: ``StoreError/invalid(_:)`` for a PostgreSQL URL without a user, host or database.
    static func parse(_ string: String) throws -> PostgresURL? {
        let lowered = string.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return nil }
        guard let components = URLComponents(string: string), let host = components.host, !host.isEmpty,
              let user = components.user, !user.isEmpty else {
            throw StoreError.invalid("a PostgreSQL URL reads postgres://user:password@host:port/dbname")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError.invalid("the PostgreSQL URL names no database (…/dbname)")
        }
        return PostgresURL(host: host, port: components.port ?? 5432, user: user.removingPercentEncoding ?? user,
                           password: components.password.map { $0.removingPercentEncoding ?? $0 }, database: database)
    }

    /// The URL without its password, for logs.
    var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
