import Foundation
@testable import Dragboard

/// Which engine the store suites run on: SQLite, unless `DRAGBOARD_TEST_ENGINE=postgres` and
/// `DRAGBOARD_TEST_POSTGRES_URL` name a server (`make test` runs the suites once on each).
enum TestEngine {
    static let postgresServer: PostgresURL? = {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DRAGBOARD_TEST_ENGINE"] == "postgres" else { return nil }
        guard let url = try? PostgresURL.parse(environment["DRAGBOARD_TEST_POSTGRES_URL"] ?? "") else {
            fatalError("DRAGBOARD_TEST_ENGINE=postgres needs DRAGBOARD_TEST_POSTGRES_URL=postgres://…")
        }
        return url
    }()

    static var isSQLite: Bool { postgresServer == nil }

    /// A new, empty database: a file path in `directory`, or a PostgreSQL URL.
    static func newDatabase(in directory: URL) throws -> String {
        guard let server = postgresServer else { return directory.appendingPathComponent("board.sqlite").path }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let url = try PostgresEngine.createDatabase(named: name, besides: server)
        return "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"
    }

    static func dropDatabase(_ location: String) {
        guard let server = postgresServer, let url = try? PostgresURL.parse(location) else { return }
        try? PostgresEngine.dropDatabase(url, on: server)
    }
}
