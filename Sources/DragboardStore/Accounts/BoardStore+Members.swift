import Dragboard
import Foundation

/// Who may do what on each board.
extension BoardStore {
    /// A board's members, owners first, then by name.
    public func members(of board: String) throws -> [BoardMember] {
        let rows = try engine.read { db in
            try db.rows(sql: """
                SELECT account.id, account.name, account.isAdmin, member.role FROM member JOIN account ON account.id = member.accountID
                WHERE member.boardID = ? ORDER BY account.nameKey
                """, arguments: [board])
        }
        let members = rows.compactMap { (row: SQLRow) -> BoardMember? in
            guard let role = BoardRole(rawValue: row[3]) else { return nil }
            return BoardMember(account: Self.account(row), role: role)
        }
        // Stable: owners, then editors, then viewers, each by name.
        return BoardRole.allCases.reversed().flatMap { role in members.filter { $0.role == role } }
    }

    /// `account`'s role on `board`: an admin owns every board; nil for a non-member (or no such board).
    public func role(of account: Account, on board: String) throws -> BoardRole? {
        try access(of: account, on: board)?.role
    }

    /// The boards `account` can open, newest activity first: every board for an admin.
    public func boards(for account: Account) throws -> [BoardRecord] {
        guard !account.isAdmin else { return try boards() }
        return try engine.read { db in
            try db.rows(sql: """
                SELECT board.id, board.title, board.version, board.activity, board.color FROM board JOIN member ON member.boardID = board.id
                WHERE member.accountID = ? ORDER BY board.activity DESC, board.id
                """, arguments: [account.id]).map(BoardRecord.init(row:))
        }
    }

    /// The boards that show stored image `id`: a zone's image is on the default board (where the
    /// kit's zones are), a card's on the boards of the rows showing it. Who may see the image.
    public func boards(showingImage id: String) throws -> Set<String> {
        try engine.read { db in
            guard let zone = try db.fetchOne(String.self, sql: "SELECT zoneID FROM zoneImage WHERE id = ?", arguments: [id]) else { return [] }
            guard zone == ZoneImageRecord.listImagesZone else { return [Self.defaultBoardID] }
            return Set(try db.fetchAll(String.self, sql: """
                SELECT DISTINCT list.boardID FROM item JOIN list ON list.id = item.listID WHERE json_extract(payload, '$.image') = ?
                """, arguments: [id]))
        }
    }

    /// Gives the account named `name` `role` on `board` (adding them, or changing their role).
    /// - Throws: ``StoreError/invalid(_:)`` for an unknown name, or when it would leave the board
    ///   with no owner.
    @discardableResult
    public func setMember(named name: String, role: BoardRole, on board: String) throws -> BoardMember {
        try changingAccess {
            try engine.write { db in
                try db.lock(board: board)
                guard let row = try db.row(sql: "SELECT id, name, isAdmin FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)]) else {
                    throw StoreError.invalid("there is no user named \(name)")
                }
                let account = Self.account(row)
                if role != .owner { try Self.keepAnOwner(db, board: board, without: account.id) }
                try db.execute(sql: """
                    INSERT INTO member (boardID, accountID, role) VALUES (?, ?, ?)
                    ON CONFLICT (boardID, accountID) DO UPDATE SET role = excluded.role
                    """, arguments: [board, account.id, role.rawValue])
                return BoardMember(account: account, role: role)
            }
        }
    }

    /// Takes the account named `name` off `board`. Returns whether they were a member.
    /// - Throws: ``StoreError/invalid(_:)`` when they are its last owner.
    @discardableResult
    public func removeMember(named name: String, from board: String) throws -> Account? {
        try changingAccess {
            try engine.write { db in
                try db.lock(board: board)
                guard let row = try db.row(sql: """
                    SELECT account.id, account.name, account.isAdmin FROM member JOIN account ON account.id = member.accountID
                    WHERE member.boardID = ? AND account.nameKey = ?
                    """, arguments: [board, Account.nameKey(name)]) else { return nil }
                let account = Self.account(row)
                try Self.keepAnOwner(db, board: board, without: account.id)
                try db.execute(sql: "DELETE FROM member WHERE boardID = ? AND accountID = ?", arguments: [board, account.id])
                return account
            }
        }
    }

    /// Refuses a change that would leave `board` with owners only among `without`.
    private static func keepAnOwner(_ db: any SQLConnection, board: String, without accountID: String) throws {
        let owners = try db.fetchAll(String.self, sql: "SELECT accountID FROM member WHERE boardID = ? AND role = ?",
                                     arguments: [board, BoardRole.owner.rawValue])
        if owners.contains(accountID), owners.count == 1 {
            throw StoreError.invalid("a board keeps at least one owner: make someone else an owner first")
        }
    }
}

extension BoardTransaction {
    /// Makes `account` an owner of this board (its creator), in the transaction that creates it.
    public func addOwner(_ account: Account) throws {
        try db.execute(sql: "INSERT INTO member (boardID, accountID, role) VALUES (?, ?, ?) ON CONFLICT (boardID, accountID) DO UPDATE SET role = excluded.role",
                       arguments: [boardID, account.id, BoardRole.owner.rawValue])
    }
}
