import ArgumentParser
import Dragboard
import DragboardStore
import Foundation
import Passwords

/// `dragboard users …`: the accounts people sign in with. Changes take effect at once, also on
/// a server running on the same database (a removed person's sign-ins end with them).
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Adds, lists and removes the accounts people sign in with.",
        subcommands: [Add.self, List.self, Remove.self, SetPassword.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Adds an account; its password is the first line of standard input.",
            discussion: "echo 'a long password' | dragboard users add alice --admin"
        )
        @OptionGroup var database: DatabaseOption
        @Argument(help: "1 to 64 letters, digits, '.', '_' or '-' (compared case-insensitively).") var name: String
        @Flag(help: "Opens every board as its owner.") var admin = false

        func run() throws {
            if let problem = Account.nameProblem(name) { throw ValidationError(problem) }
            let hash = try UsersCommand.passwordHashFromStandardInput()
            let store = try database.open()
            do {
                try store.addAccount(name: name, passwordHash: hash, isAdmin: admin)
            } catch StoreError.invalid(let reason) {
                throw ValidationError(reason)
            }
            print("Added \(name)\(admin ? " (admin)" : "").")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the accounts, one per line (admins marked).")
        @OptionGroup var database: DatabaseOption

        func run() throws {
            for account in try database.open().accounts() {
                print(account.isAdmin ? "\(account.name)\tadmin" : account.name)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Removes an account, ending its sign-ins at once.")
        @OptionGroup var database: DatabaseOption
        @Argument var name: String

        func run() throws {
            guard try database.open().removeAccount(named: name) else { throw ValidationError("there is no user named \(name)") }
            print("Removed \(name).")
        }
    }

    struct SetPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password",
            abstract: "Sets an account's password (the first line of standard input), ending its sign-ins at once."
        )
        @OptionGroup var database: DatabaseOption
        @Argument var name: String

        func run() throws {
            let hash = try UsersCommand.passwordHashFromStandardInput()
            guard try database.open().setPasswordHash(hash, forAccountNamed: name) else { throw ValidationError("there is no user named \(name)") }
            print("Set the password of \(name).")
        }
    }

    /// The first line of standard input, checked and hashed: never from a terminal prompt (it
    /// must work from scripts) and never from an argument (which other users can see in `ps`).
    static func passwordHashFromStandardInput() throws -> String {
        guard let password = readLine(strippingNewline: true) else {
            throw ValidationError("give the password as the first line of standard input")
        }
        if let problem = Account.passwordProblem(password) { throw ValidationError(problem) }
        return try PasswordHash.make(password)
    }
}
