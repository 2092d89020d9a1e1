@testable import DragboardStore
import Foundation
import Testing
@testable import Dragboard

/// Accounts, sign-ins and board members, on whichever engine the suite runs against.
@Suite struct AccountStoreTests {
    @Test func namesAreUniqueWhateverTheirCaseAndFollowTheRules() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        #expect(try !temp.store.hasAccounts())
        let alice = try temp.store.addAccount(name: "Alice", passwordHash: "$argon2id$a", isAdmin: true)
        #expect(try temp.store.hasAccounts())
        #expect(throws: StoreError.invalid("the user name alice is taken")) { try temp.store.addAccount(name: "alice", passwordHash: "$argon2id$b") }
        for bad in ["", String(repeating: "a", count: 65), "al ice", "ali/ce", "álice", "a'b"] {
            #expect(throws: StoreError.self, "\(bad)") { try temp.store.addAccount(name: bad, passwordHash: "$argon2id$c") }
        }
        try temp.store.addAccount(name: "bob.b_-1", passwordHash: "$argon2id$d")
        #expect(try temp.store.accounts().map(\.name) == ["Alice", "bob.b_-1"])
        let found = try #require(try temp.store.account(named: "ALICE"))
        #expect(found.account == alice && found.passwordHash == "$argon2id$a")
    }

    @Test func aSignInIsFoundByItsTokenOnlyAndEndsWithItsAccountOrPassword() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let alice = try temp.store.addAccount(name: "alice", passwordHash: "$argon2id$a")
        let started = try temp.store.startSignIn(alice, token: String(repeating: "ab", count: 32), csrf: "c1")
        #expect(try temp.store.signIn(token: String(repeating: "ab", count: 32), idleLimit: 3600) == started)
        #expect(try temp.store.signIn(token: String(repeating: "ba", count: 32), idleLimit: 3600) == nil)
        #expect(try temp.store.standing(ofSignIns: [started.digest, "gone"]).keys.sorted() == [started.digest])
        try temp.store.setPasswordHash("$argon2id$new", forAccountNamed: "ALICE")
        #expect(try temp.store.signIn(token: String(repeating: "ab", count: 32), idleLimit: 3600) == nil)
        _ = try temp.store.startSignIn(alice, token: String(repeating: "cd", count: 32), csrf: "c2")
        #expect(try temp.store.removeAccount(named: "alice"))
        #expect(try temp.store.signIn(token: String(repeating: "cd", count: 32), idleLimit: 3600) == nil)
        #expect(try !temp.store.removeAccount(named: "alice"))
    }

    @Test func membersHaveOneRoleEachAndABoardKeepsAnOwner() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        let board = BoardStore.defaultBoardID
        let alice = try temp.store.addAccount(name: "alice", passwordHash: "x")
        let bob = try temp.store.addAccount(name: "bob", passwordHash: "x")
        let admin = try temp.store.addAccount(name: "root", passwordHash: "x", isAdmin: true)
        #expect(try temp.store.role(of: alice, on: board) == nil)
        #expect(try temp.store.role(of: admin, on: board) == .owner)
        #expect(try temp.store.role(of: admin, on: "no-such-board") == nil)
        try temp.store.setMember(named: "alice", role: .owner, on: board)
        try temp.store.setMember(named: "BOB", role: .viewer, on: board)
        #expect(try temp.store.members(of: board).map { "\($0.account.name):\($0.role.rawValue)" } == ["alice:owner", "bob:viewer"])
        try temp.store.setMember(named: "bob", role: .editor, on: board)
        #expect(try temp.store.role(of: bob, on: board) == .editor)
        #expect(throws: StoreError.invalid("a board keeps at least one owner: make someone else an owner first")) {
            try temp.store.setMember(named: "alice", role: .editor, on: board)
        }
        #expect(throws: StoreError.self) { try temp.store.removeMember(named: "alice", from: board) }
        #expect(throws: StoreError.invalid("there is no user named carol")) { try temp.store.setMember(named: "carol", role: .viewer, on: board) }
        #expect(try temp.store.boards(for: bob).map(\.id) == [board])
        #expect(try temp.store.removeMember(named: "bob", from: board) == bob)
        #expect(try temp.store.boards(for: bob).isEmpty)
        #expect(try temp.store.boards(for: admin).map(\.id) == [board])
        #expect(try temp.store.removeMember(named: "bob", from: board) == nil)
    }

    @Test func deletingABoardOrAnAccountTakesTheirMembershipsWithThem() throws {
        let temp = try TempStore()
        defer { temp.remove() }
        try temp.store.addAccount(name: "alice", passwordHash: "x")
        let bob = try temp.store.addAccount(name: "bob", passwordHash: "x")
        try temp.store.setMember(named: "alice", role: .owner, on: BoardStore.defaultBoardID)
        try temp.store.setMember(named: "bob", role: .editor, on: BoardStore.defaultBoardID)
        try temp.store.removeAccount(named: "alice")
        #expect(try temp.store.members(of: BoardStore.defaultBoardID).map(\.account) == [bob])
        _ = try temp.store.perform(board: BoardStore.defaultBoardID, operationID: "delete-board-1", fingerprint: "f") { tx in
            try tx.deleteBoard()
            return "{}"
        }
        #expect(try temp.store.boards(for: bob).isEmpty)
    }
}
