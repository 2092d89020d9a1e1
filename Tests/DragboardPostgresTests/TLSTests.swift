@testable import DragboardStore
import Foundation
import Logging
import Testing
@testable import Dragboard
@testable import DragboardPostgres

/// TLS to PostgreSQL follows the URL's `sslmode`, against the test server (`make test` starts one
/// and names it in `DRAGBOARD_TEST_POSTGRES_URL`) with certificates this test makes: a root, and a
/// server certificate it signed for the name `localhost` alone. The server serves them for the length of the
/// test (`ALTER SYSTEM`, then a reload: connections without TLS go on as before).
@Suite(.serialized) struct TLSTests {
    @Test func everyModeDoesWhatItSays() throws {
        let server = try Self.serverURL()
        let certificates = try Certificates()
        defer { certificates.remove() }
        try Self.serveTLS(on: server, with: certificates)
        defer { try? Self.stopServingTLS(on: server) }
        let database = try PostgresEngine.createDatabase(named: "t_tls_" + UUID().uuidString.lowercased().prefix(8), besides: server)
        defer { try? PostgresEngine.dropDatabase(database, on: server) }
        let base = "postgres://\(database.user)@127.0.0.1:\(database.port)/\(database.database)"
        let named = "postgres://\(database.user)@localhost:\(database.port)/\(database.database)"

        #expect(try Self.encrypted(base) == false)
        #expect(try Self.encrypted(base + "?sslmode=disable") == false)
        // Encrypted, though nothing is checked: even a root that signed nothing of the server's will do.
        #expect(try Self.encrypted(base + "?sslmode=require") == true)
        #expect(try Self.encrypted(base + "?sslmode=require&sslrootcert=\(certificates.strangerRoot)") == true)
        // Checked: the chain ends at the given root and the certificate names the host connected to.
        #expect(try Self.encrypted(named + "?sslmode=verify-full&sslrootcert=\(certificates.root)") == true)
        for refused in [
            named + "?sslmode=verify-full&sslrootcert=\(certificates.strangerRoot)",  // signed by another root
            named + "?sslmode=verify-full",                                              // the system's roots did not sign it
            base + "?sslmode=verify-full&sslrootcert=\(certificates.root)",           // 127.0.0.1 is not the name it bears
        ] {
            #expect(throws: StoreError.self, "\(refused)") { _ = try BoardStore(database: refused) }
        }
        #expect(throws: StoreError.self) { _ = try BoardStore(database: base + "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem") }
    }

    /// Whether the store's connection to `url` is encrypted, as the server sees it.
    private static func encrypted(_ url: String) throws -> Bool {
        let engine = try PostgresEngine(url: try #require(try PostgresURL.parse(url)))
        return try engine.read { db in
            guard let ssl = try db.fetchOne(Bool.self, sql: "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") else {
                throw StoreError.invalid("pg_stat_ssl has no row for this connection")
            }
            return ssl
        }
    }

    static func serverURL() throws -> PostgresURL {
        let named = ProcessInfo.processInfo.environment["DRAGBOARD_TEST_POSTGRES_URL"] ?? ""
        guard let url = try PostgresURL.parse(named) else {
            throw StoreError.invalid("this test needs PostgreSQL: DRAGBOARD_TEST_POSTGRES_URL=postgres://… (`make test` starts a server)")
        }
        return url
    }

    /// Has the server load the certificate and key, and waits until a new connection can use TLS.
    private static func serveTLS(on server: PostgresURL, with certificates: Certificates) throws {
        // The server reads its key as the account that owns its data folder, and only from a file
        // of that account's alone.
        let owner = try administer(server) { db in try db.fetchOne(String.self, sql: "SHOW data_directory") }
        let uid = try FileManager.default.attributesOfItem(atPath: try #require(owner))[.ownerAccountID] as? NSNumber
        for file in [certificates.serverCertificate, certificates.serverKey] {
            try FileManager.default.setAttributes([.ownerAccountID: try #require(uid), .posixPermissions: 0o600], ofItemAtPath: file)
        }
        try administer(server) { db in
            try db.execute(sql: "ALTER SYSTEM SET ssl_cert_file = '\(certificates.serverCertificate)'")
            try db.execute(sql: "ALTER SYSTEM SET ssl_key_file = '\(certificates.serverKey)'")
            try db.execute(sql: "ALTER SYSTEM SET ssl = on")
            try db.execute(sql: "SELECT pg_reload_conf()")
        }
        // The reload is a signal: the postmaster reads the files soon after, not before the call returns.
        var url = server
        url.tls = .require
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? administer(url) { _ in }) == nil {
            guard ContinuousClock.now < deadline else { throw StoreError.unavailable("the server did not start serving TLS in 20 s (see its log)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private static func stopServingTLS(on server: PostgresURL) throws {
        try administer(server) { db in
            for setting in ["ssl", "ssl_cert_file", "ssl_key_file"] { try db.execute(sql: "ALTER SYSTEM RESET \(setting)") }
            try db.execute(sql: "SELECT pg_reload_conf()")
        }
    }

    private static func administer<T>(_ url: PostgresURL, _ body: (any SQLConnection) throws -> T) throws -> T {
        let pool = try PostgresEngine.administration(of: url)
        defer { pool.close() }
        return try pool.withConnection { pooled in
            try body(PostgresSQLConnection(pooled, dialect: PostgresDialect(), logger: Logger(label: "test")))
        }
    }
}

/// A root, a server certificate for `localhost` that it signed, and a second root that signed
/// nothing, made with `openssl` in a folder the server's account can read.
struct Certificates {
    let directory: URL
    var root: String { directory.appendingPathComponent("root.pem").path }
    var strangerRoot: String { directory.appendingPathComponent("stranger.pem").path }
    var serverCertificate: String { directory.appendingPathComponent("server.pem").path }
    var serverKey: String { directory.appendingPathComponent("server.key").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for name in ["root", "stranger"] {
            try openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                        "-subj", "/CN=Dragboard test \(name)", "-keyout", "\(name).key", "-out", "\(name).pem")
        }
        try openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
        try "subjectAltName = DNS:localhost\n".write(to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try openssl("x509", "-req", "-in", "server.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial",
                    "-days", "2", "-extfile", "server.ext", "-out", "server.pem")
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func openssl(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreError.invalid("openssl \(arguments.first ?? "") failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}
