@testable import DragboardStore
import Foundation
import Glibc
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP
@testable import DragboardPostgres

/// The PostgreSQL engine's parts that need no server, or a server that is not one.
@Suite struct PostgresPartsTests {
    @Test func theStoresSQLBecomesPostgreSQLs() {
        #expect(PostgresDialect.translateUncached("SELECT pos, id FROM item WHERE listID = ? AND containerID IS ? AND (pos, id) > (?, ?) LIMIT ?")
            == "SELECT pos, id FROM item WHERE listID = $1 AND scope = COALESCE($2, '') AND (pos, id) > ($3, $4) LIMIT $5")
        #expect(PostgresDialect.translateUncached("SELECT 1 FROM item WHERE json_extract(payload, '$.image') = ? LIMIT 1")
            == "SELECT 1 FROM item WHERE (payload::jsonb ->> 'image') = $1 LIMIT 1")
        #expect(PostgresDialect.translateUncached("SELECT id FROM item INDEXED BY item_kind WHERE kind IN (?, ?)")
            == "SELECT id FROM item WHERE kind IN ($1, $2)")
        // A question mark inside a literal is text, not a placeholder.
        #expect(PostgresDialect.translateUncached("UPDATE list SET title = 'why?' WHERE id = ?") == "UPDATE list SET title = 'why?' WHERE id = $1")
    }

    /// A statement prepared with its arguments' types: each placeholder cast to the type its value is
    /// sent as, NULLs left for PostgreSQL to infer, quoted text untouched.
    @Test func aTypedStatementCastsEachPlaceholderToItsArgumentsType() {
        let types = (1...10).map { $0 == 3 ? "unknown" : ["bigint", "text", "double precision"][$0 % 3] }
        #expect(PostgresSQLConnection.casting("UPDATE t SET a = $1, b = $2, c = $3 WHERE d = '$4' AND e IN ($4, $10)", to: types)
            == "UPDATE t SET a = $1::text, b = $2::double precision, c = $3 WHERE d = '$4' AND e IN ($4::text, $10::text)")
        #expect(PostgresSQLConnection.casting("SELECT $1", to: ["bytea"]) == "SELECT $1::bytea")
        #expect(PostgresSQLConnection.casting("SELECT 1", to: []) == "SELECT 1")
    }

    @Test func urlsAreReadAndPathsAreNot() throws {
        #expect(try PostgresURL.parse("dragboard.sqlite") == nil)
        #expect(try PostgresURL.parse("/var/lib/postgres.sqlite") == nil)
        let url = try #require(try PostgresURL.parse("postgres://board:s%40cret@db.example:6543/boards"))
        #expect(url == PostgresURL(host: "db.example", port: 6543, user: "board", password: "s@cret", database: "boards"))
        #expect(url.redacted == "postgres://board@db.example:6543/boards")
        #expect(try PostgresURL.parse("postgresql://u@h/d")?.port == 5432)
        #expect(throws: StoreError.self) { try PostgresURL.parse("postgres://db.example/boards") }
        #expect(throws: StoreError.self) { try PostgresURL.parse("postgres://u@db.example/") }
    }

    @Test func tlsFollowsTheURLsSSLMode() throws {
        #expect(try PostgresURL.parse("postgres://u@h/d")?.tls == .disable)
        #expect(try PostgresURL.parse("postgres://u@h/d?sslmode=disable")?.tls == .disable)
        #expect(try PostgresURL.parse("postgres://u@h/d?sslmode=require")?.tls == .require)
        #expect(try PostgresURL.parse("postgres://u@h/d?sslmode=verify-full")?.tls == .verifyFull(rootCertificate: nil))
        #expect(try PostgresURL.parse("postgres://u@h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem")?.tls == .verifyFull(rootCertificate: "/etc/ca.pem"))
        #expect(try PostgresURL.parse("postgres://u:pw@h:1/d?sslmode=verify-full")?.redacted == "postgres://u@h:1/d?sslmode=verify-full")
        // A mode that would quietly fall back to clear text, or a parameter this store ignores, is refused.
        for refused in ["postgres://u@h/d?sslmode=prefer", "postgres://u@h/d?sslmode=allow", "postgres://u@h/d?sslmode=verify-ca",
                        "postgres://u@h/d?sslmode=", "postgres://u@h/d?connect_timeout=3"] {
            #expect(throws: StoreError.self, "\(refused)") { try PostgresURL.parse(refused) }
        }
    }

    @Test func aSQLiteStoreRefusesAPostgreSQLURL() {
        #expect(throws: StoreError.self) { try BoardStore(path: "postgres://u@127.0.0.1:1/d") }
        #expect(throws: StoreError.self) { try BoardStore(path: "PostgreSQL://u@127.0.0.1:1/d") }
    }

    @Test func aServerThatCannotBeReachedIsUnavailableNotAFailure() throws {
        // A port nobody listens on: bound, then closed.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        close(listener)
        let port = Int(UInt16(bigEndian: address.sin_port))
        do {
            _ = try BoardStore(database: "postgres://nobody@127.0.0.1:\(port)/none")
            Issue.record("a store opened on nothing")
        } catch let error as StoreError {
            guard case .unavailable(let message) = error else { Issue.record("\(error)"); return }
            // Words for people; the address and the driver's error go to the log, not to a client.
            #expect(message == PostgresEngine.unreachable)
            #expect(!message.contains("\(port)"))
            #expect(DragboardError(error).httpError.status == .serviceUnavailable)
        }
    }

    @Test func aServerThatAcceptsButNeverAnswersIsUnavailableAtTheDeadline() throws {
        // A socket that listens (the kernel completes the handshake) and never reads a byte.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        #expect(listen(listener, 8) == 0)
        let url = PostgresURL(host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)), user: "nobody", password: nil, database: "none")
        do {
            _ = try PostgresEngine(url: url, answerDeadline: .milliseconds(300))
            Issue.record("a store opened on a server that never answered")
        } catch StoreError.unavailable(let message) {
            #expect(message == PostgresEngine.unreachable)
        }
    }

    @Test func aNoticeSaysVersionInstanceAndBoard() {
        let notice = ChangeNotice(instance: "8C1F", board: "my-board_2", version: 42)
        #expect(notice.payload == "42 8C1F my-board_2")
        #expect(ChangeNotice(payload: notice.payload) == notice)
        #expect(ChangeNotice(payload: "x 8C1F b") == nil)
        #expect(ChangeNotice(payload: "42 8C1F") == nil)
    }
}

