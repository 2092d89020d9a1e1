import DragboardStore
import Foundation

/// Where a PostgreSQL database is and how to reach it:
/// `postgres://user:password@host:port/dbname?sslmode=…&sslrootcert=…` (also `postgresql://`),
/// as `BoardStore(database:)` takes it.
struct PostgresURL: Sendable, Equatable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tls = TLSMode.disable

    /// libpq's `sslmode`, in the modes that say what they promise: no TLS, TLS that is not checked
    /// (`require`: encrypted, but anyone in between can answer), or TLS whose certificate chains to
    /// a trusted root and names the host (`verify-full`). Absent, it is `disable`, as before TLS
    /// was supported.
    enum TLSMode: Sendable, Equatable {
        case disable
        case require
        /// `rootCertificate`: a PEM file of the trusted roots (`sslrootcert`); nil trusts the system's.
        case verifyFull(rootCertificate: String?)
    }

    /// Nil when `string` is not a PostgreSQL URL at all (a file path, say).
    /// - Throws: ``StoreError/invalid(_:)`` for a PostgreSQL URL without a user, host or database,
    ///   or with an `sslmode` this store does not offer.
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
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        if let unknown = query.keys.first(where: { !["sslmode", "sslrootcert"].contains($0) }) {
            throw StoreError.invalid("the PostgreSQL URL's parameter \(unknown) is not supported (sslmode, sslrootcert are)")
        }
        let tls: TLSMode
        switch query["sslmode"] ?? "disable" {
        case "disable": tls = .disable
        case "require": tls = .require
        case "verify-full": tls = .verifyFull(rootCertificate: query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 })
        case let mode:
            throw StoreError.invalid("sslmode=\(mode) is not supported: use disable, require or verify-full")
        }
        return PostgresURL(host: host, port: components.port ?? 5432, user: user.removingPercentEncoding ?? user,
                           password: components.password.map { $0.removingPercentEncoding ?? $0 }, database: database, tls: tls)
    }

    /// The URL without its password, for logs.
    var redacted: String {
        switch tls {
        case .disable: "postgres://\(user)@\(host):\(port)/\(database)"
        case .require: "postgres://\(user)@\(host):\(port)/\(database)?sslmode=require"
        case .verifyFull: "postgres://\(user)@\(host):\(port)/\(database)?sslmode=verify-full"
        }
    }
}
