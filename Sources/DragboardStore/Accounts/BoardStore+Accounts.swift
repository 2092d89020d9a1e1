import Dragboard
import Foundation
import Synchronization

/// Accounts: people who sign in, with the Argon2id hash of their password (made by the caller;
/// the store never sees a password).
extension BoardStore {
    /// Whether anyone can sign in: from the first account on, every request needs a sign-in.
    ///
    /// Once true it is remembered, and never asked again: removing every account from a running
    /// server keeps it closed (fail closed) until it starts again. False is asked of the database
    /// each time, unless the engine hears of every account added (``AccessWatch``): then it holds
    /// until it hears of one.
    public func hasAccounts() throws -> Bool {
        if accountsExist.load(ordering: .acquiring) { return true }
        // Read before asking: an account added while the question is asked moves it.
        let epoch = engine.accessWatch?.epoch
        if let epoch, accessMemory.withLock({ $0.knowsNoAccounts(at: epoch) }) { return false }
        let found = try engine.readOne { try $0.fetchOne(Int.self, sql: "SELECT 1 FROM account LIMIT 1") != nil }
        if found {
            accountsExist.store(true, ordering: .releasing)
        } else if let epoch {
            accessMemory.withLock { $0.keepNoAccounts(at: epoch) }
        }
        return found
    }

    /// Adds an account. - Throws: ``StoreError/invalid(_:)`` when the name breaks the rules or
    /// is taken (names compare case-insensitively).
    @discardableResult
    public func addAccount(name: String, passwordHash: String, isAdmin: Bool = false) throws -> Account {
        if let problem = Account.nameProblem(name) { throw StoreError.invalid(problem) }
        let account = Account(id: UUID().uuidString.lowercased(), name: name, isAdmin: isAdmin)
        try engine.write { db in
            guard try db.fetchOne(Int.self, sql: "SELECT 1 FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)]) == nil else {
                throw StoreError.invalid("the user name \(name) is taken")
            }
            try db.execute(sql: "INSERT INTO account (id, name, nameKey, passwordHash, isAdmin, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [account.id, name, Account.nameKey(name), passwordHash, isAdmin ? 1 : 0, Date().timeIntervalSince1970])
        }
        accountsExist.store(true, ordering: .releasing)  // this process closes at once
        return account
    }

    /// Every account, by name.
    public func accounts() throws -> [Account] {
        try engine.read { db in
            try db.rows(sql: "SELECT id, name, isAdmin FROM account ORDER BY nameKey").map(Self.account)
        }
    }

    /// The account with this name (in any case) and its password hash.
    public func account(named name: String) throws -> (account: Account, passwordHash: String)? {
        try engine.read { db in
            try db.row(sql: "SELECT id, name, isAdmin, passwordHash FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)]).map {
                (Self.account($0), $0[3])
            }
        }
    }

    /// Removes an account with its sign-ins and memberships (at once: its next request finds
    /// no sign-in). Boards it alone owned keep their other members. Returns whether it existed.
    @discardableResult
    public func removeAccount(named name: String) throws -> Bool {
        try changingAccess {
            try engine.write { db in
                try db.execute(sql: "DELETE FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)])
                return db.changesCount > 0
            }
        }
    }

    /// Replaces an account's password hash and ends every sign-in it has. Returns whether it existed.
    @discardableResult
    public func setPasswordHash(_ passwordHash: String, forAccountNamed name: String) throws -> Bool {
        try changingAccess {
            try engine.write { db in
                guard let id = try db.fetchOne(String.self, sql: "SELECT id FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)]) else {
                    return false
                }
                try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, id])
                try db.execute(sql: "DELETE FROM signIn WHERE accountID = ?", arguments: [id])
                return true
            }
        }
    }

    static func account(_ row: SQLRow) -> Account {
        Account(id: row[0], name: row[1], isAdmin: (row[2] as Int) != 0)
    }
}
