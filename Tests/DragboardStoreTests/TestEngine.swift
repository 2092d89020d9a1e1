import Foundation
@testable import Dragboard
@testable import DragboardPostgres

/// Which engine a test's store runs on. The store suites run on SQLite, and on PostgreSQL when
/// `DRAGBOARD_TEST_ENGINE=postgres` (`make test` runs them once on each); a test about one
/// engine's own behaviour names it, and runs on it in both passes. PostgreSQL is the server
/// `DRAGBOARD_TEST_POSTGRES_URL` names (`make test` starts one).
enum TestEngine: Sendable {
    case sqlite, postgres

    /// The engine of this run of the suites.
    static let pass: TestEngine = ProcessInfo.processInfo.environment["DRAGBOARD_TEST_ENGINE"] == "postgres" ? .postgres : .sqlite

    struct NoServer: Error, CustomStringConvertible {
        var description: String {
            "this test needs PostgreSQL: DRAGBOARD_TEST_POSTGRES_URL=postgres://… (`make test` starts a server)"
        }
    }

    static func postgresServer() throws -> PostgresURL {
        guard let url = try PostgresURL.parse(ProcessInfo.processInfo.environment["DRAGBOARD_TEST_POSTGRES_URL"] ?? "") else { throw NoServer() }
        return url
    }

    /// A new, empty database on this engine: a file path in `directory`, or a PostgreSQL URL.
    func newDatabase(in directory: URL) throws -> String {
        guard self == .postgres else { return directory.appendingPathComponent("board.sqlite").path }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let url = try PostgresEngine.createDatabase(named: name, besides: try Self.postgresServer())
        return "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"
    }

    /// Drops a database `newDatabase` made on PostgreSQL (a file goes with its folder).
    static func dropDatabase(_ location: String) {
        guard let url = try? PostgresURL.parse(location), let server = try? postgresServer() else { return }
        try? PostgresEngine.dropDatabase(url, on: server)
    }
}
