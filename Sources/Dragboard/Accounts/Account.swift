import DragAndDrop

/// A person who signs in.
public struct Account: Sendable, Hashable, Identifiable {
    /// Never shown; what memberships and sign-ins refer to.
    public var id: String
    /// The name as it was given (names compare case-insensitively: `Alice` and `alice` are one).
    public var name: String
    /// Opens every board as its owner.
    public var isAdmin: Bool

    public init(id: String, name: String, isAdmin: Bool) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
    }

    /// What a name must be: 1 to 64 letters, digits, `.`, `_` or `-` (ASCII, so two names that
    /// look alike are alike); the words of the first rule it breaks, or nil.
    public static func nameProblem(_ name: String) -> String? {
        guard (1...64).contains(name.utf8.count) else { return "a user name is 1 to 64 characters" }
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        return allowed ? nil : "a user name holds only letters, digits, '.', '_' and '-'"
    }

    /// What a password must be: 8 to 1,024 characters; the words of the rule it breaks, or nil.
    public static func passwordProblem(_ password: String) -> String? {
        (8...1024).contains(password.count) ? nil : "a password is 8 to 1,024 characters"
    }

    /// The form names are compared in.
    public static func nameKey(_ name: String) -> String { name.lowercased() }
}

/// How much a member may do on a board: viewer, editor or owner.
public typealias BoardRole = DragUser.Role

extension BoardRole {
    /// The role's name as people read it.
    public var title: String {
        switch self {
        case .viewer: "Viewer"
        case .editor: "Editor"
        case .owner: "Owner"
        }
    }
}

/// A person's place on a board.
public struct BoardMember: Sendable, Hashable {
    public var account: Account
    public var role: BoardRole

    public init(account: Account, role: BoardRole) {
        self.account = account
        self.role = role
    }
}
