@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard

/// `dragboard users …` against a database of the engine the suite runs on (the same
/// `--database` option as the server): the built executable, run as a person would.
@Suite struct UsersCommandTests {
    /// The `dragboard` executable SwiftPM built beside this test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dragboard")
    }

    /// Runs `dragboard users <arguments> --database <database>` with `input` as its standard
    /// input (closed right after, so nothing waits for a terminal).
    static func users(_ arguments: [String], database: String, input: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["users"] + arguments + ["--database", database]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    @Test func addListSetPasswordAndRemove() throws {
        let temp = try TempStore(seeded: false)
        defer { temp.remove() }
        let added = try Self.users(["add", "alice", "--admin"], database: temp.path, input: "correct horse battery\n")
        #expect(added.status == 0, "\(added.errors)")
        #expect(try Self.users(["add", "Bob"], database: temp.path, input: "another password").status == 0)
        #expect(try Self.users(["list"], database: temp.path).output == "alice\tadmin\nBob\n")
        let stored = try #require(try temp.store.account(named: "alice"))
        #expect(stored.passwordHash.hasPrefix("$argon2id$") && !stored.passwordHash.contains("correct horse"))
        #expect(stored.account.isAdmin)

        let signIn = try temp.store.startSignIn(stored.account, token: String(repeating: "1", count: 64), csrf: "c")
        #expect(try Self.users(["set-password", "ALICE"], database: temp.path, input: "a new password\n").status == 0)
        #expect(try temp.store.account(named: "alice")?.passwordHash != stored.passwordHash)
        #expect(try temp.store.standing(ofSignIns: [signIn.digest]).isEmpty)

        #expect(try Self.users(["remove", "bob"], database: temp.path).status == 0)
        #expect(try temp.store.accounts().map(\.name) == ["alice"])
    }

    /// A server running on the file (this store, which remembers who may do what) sees what the
    /// command changed as soon as the command is done: it moves the count beside the database.
    @Test func aRunningServerSeesTheCommandsChangesAtOnce() throws {
        let temp = try TempStore(engine: .sqlite)
        defer { temp.remove() }
        let board = BoardStore.defaultBoardID
        #expect(try !temp.store.hasAccounts())
        #expect(try Self.users(["add", "alice"], database: temp.path, input: "correct horse battery\n").status == 0)
        #expect(try temp.store.hasAccounts())

        let alice = try #require(try temp.store.account(named: "alice")).account
        try temp.store.setMember(named: "alice", role: .editor, on: board)
        let token = String(repeating: "1", count: 64)
        _ = try temp.store.startSignIn(alice, token: token, csrf: "c")
        #expect(try temp.store.signIn(token: token, idleLimit: 3600)?.account == alice)
        #expect(try temp.store.access(of: alice, on: board)?.role == .editor)
        #expect(try Self.users(["set-password", "alice"], database: temp.path, input: "a new password\n").status == 0)
        #expect(try temp.store.signIn(token: token, idleLimit: 3600) == nil)
        #expect(try Self.users(["remove", "alice"], database: temp.path).status == 0)
        #expect(try temp.store.access(of: alice, on: board)?.role == nil)
    }

    @Test func badInputIsRefusedWithWordsAndChangesNothing() throws {
        let temp = try TempStore(seeded: false)
        defer { temp.remove() }
        let short = try Self.users(["add", "alice"], database: temp.path, input: "short\n")
        #expect(short.status != 0 && short.errors.contains("a password is 8 to 1,024 characters"))
        let none = try Self.users(["add", "alice"], database: temp.path, input: nil)
        #expect(none.status != 0 && none.errors.contains("standard input"))
        let badName = try Self.users(["add", "al ice"], database: temp.path, input: "long enough password\n")
        #expect(badName.status != 0 && badName.errors.contains("letters, digits"))
        #expect(try Self.users(["add", "alice"], database: temp.path, input: "long enough password\n").status == 0)
        let taken = try Self.users(["add", "ALICE"], database: temp.path, input: "long enough password\n")
        #expect(taken.status != 0 && taken.errors.contains("taken"))
        #expect(try Self.users(["remove", "nobody"], database: temp.path).status != 0)
        #expect(try Self.users(["set-password", "nobody"], database: temp.path, input: "long enough password\n").status != 0)
        #expect(try temp.store.accounts().map(\.name) == ["alice"])
    }
}
