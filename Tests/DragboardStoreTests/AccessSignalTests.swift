@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard
import DragboardPostgres

/// On SQLite, every process that changes who may do what moves the count in the file beside the
/// database (``AccessSignal``), and a server answers sign-ins, roles and "no accounts yet" from
/// memory until it sees the count move: at once for its own changes and another process's.
@Suite struct AccessSignalTests {
    /// Changes the file as a tool that is not Dragboard would (the `sqlite3` shell): nobody is told.
    func unannounced(_ t: TempStore, _ sql: String, _ arguments: StatementArguments = []) throws {
        let foreign = try DatabaseQueue(path: t.path)
        try foreign.write { try $0.execute(sql: sql, arguments: arguments) }
    }

    func signal(_ store: BoardStore) throws -> AccessSignal {
        try #require(store.engine as? SQLiteEngine).accessChanges.signal
    }

    @Test func noAccountsIsRememberedUntilAnotherProcessAddsOne() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        // Another process on the same file, as `dragboard users` is beside a running server.
        let other = try BoardStore(database: t.path)
        #expect(try !t.store.hasAccounts())
        try unannounced(t, "INSERT INTO account (id, name, nameKey, passwordHash, isAdmin, createdAt) VALUES ('q', 'quiet', 'quiet', 'x', 0, 0)")
        #expect(try !t.store.hasAccounts())  // remembered: nobody said
        try unannounced(t, "DELETE FROM account")

        try other.addAccount(name: "ada", passwordHash: "x", isAdmin: true)
        #expect(try t.store.hasAccounts())
    }

    @Test func aSignInARoleAndABoardAreRememberedUntilAnotherProcessChangesThem() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let other = try BoardStore(database: t.path)
        let board = BoardStore.defaultBoardID
        let ada = try t.store.addAccount(name: "ada", passwordHash: "x")
        try t.store.setMember(named: "ada", role: .editor, on: board)
        _ = try t.store.startSignIn(ada, token: "token-1", csrf: "c1")
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600)?.account == ada)
        #expect(try t.store.access(of: ada, on: board)?.role == .editor)

        // Remembered: changes nobody announced are not seen...
        try unannounced(t, "DELETE FROM signIn")
        try unannounced(t, "UPDATE member SET role = 'viewer' WHERE accountID = ?", [ada.id])
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600)?.csrf == "c1")
        #expect(try t.store.access(of: ada, on: board)?.role == .editor)

        // ...until another process changes access: then everything is asked again.
        try other.setMember(named: "ada", role: .owner, on: board)
        #expect(try t.store.access(of: ada, on: board)?.role == .owner)
        #expect(try t.store.signIn(token: "token-1", idleLimit: 3600) == nil)

        // A board renamed or deleted elsewhere.
        #expect(try t.store.access(of: ada, on: board)?.title != "Renamed")
        _ = try other.perform(operationID: "rename", fingerprint: "f") { tx in try tx.renameBoard("Renamed"); return "" }
        #expect(try t.store.access(of: ada, on: board)?.title == "Renamed")
        _ = try other.perform(operationID: "delete", fingerprint: "f") { tx in try tx.deleteBoard(); return "" }
        #expect(try t.store.access(of: ada, on: board) == nil)
    }

    @Test func onlyChangesToAccessMoveTheCount() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let signal = try signal(t.store)
        var count = signal.value
        func moved() -> Bool {
            defer { count = signal.value }
            return signal.value != count
        }
        // A row's move, a rename of a row, the board's version: not access.
        _ = try t.store.perform(operationID: "rename-a", fingerprint: "f") { tx in try tx.setTitle("a", "Renamed"); return "" }
        #expect(!moved())
        let ada = try t.store.addAccount(name: "ada", passwordHash: "x")
        #expect(moved())
        _ = try t.store.startSignIn(ada, token: "token-1", csrf: "c1")
        #expect(!moved())  // a new sign-in changes no answer anyone remembers
        try t.store.endSignIn(token: "token-1")
        #expect(moved())
        try t.store.setMember(named: "ada", role: .viewer, on: BoardStore.defaultBoardID)
        #expect(moved())
        _ = try t.store.removeMember(named: "ada", from: BoardStore.defaultBoardID)
        #expect(moved())
        _ = try t.store.perform(operationID: "rename-board", fingerprint: "f") { tx in try tx.renameBoard("New title"); return "" }
        #expect(moved())
        #expect(try t.store.removeAccount(named: "ada"))
        #expect(moved())
    }

    @Test func theCountIsSharedThroughTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("board.sqlite").path
        let first = try AccessSignal(beside: database), second = try AccessSignal(beside: database)
        #expect(first.value == 0)
        first.raise()
        second.raise()
        #expect(first.value == 2 && second.value == 2)
        #expect(FileManager.default.fileExists(atPath: database + "-access"))
        // Where the file cannot be written, the database is not opened: changes would go untold.
        #expect(throws: StoreError.self) { try AccessSignal(beside: directory.appendingPathComponent("missing/board.sqlite").path) }
    }
}
