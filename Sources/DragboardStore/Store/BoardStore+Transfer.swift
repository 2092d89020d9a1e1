import Dragboard
import Foundation

extension BoardStore {
    /// Creates the board an import describes, as one operation: all of it or, when anything is
    /// refused, nothing. Its lists must be of `listKinds` (the kit's). People named as members
    /// become editors where an account has their name; the others are counted in the answer.
    /// - Returns: The new board's id and the import as made (skipped members counted).
    /// A retry of `operationID` with the same `fingerprint` (a digest of the file) creates nothing and
    /// answers the first board.
    public func importBoard(_ imported: BoardImport, id: String, listKinds: Set<String>, operationID: String, fingerprint: String, creator: Account?,
                            _ record: (BoardTransaction, BoardImport) throws -> Void = { _, _ in }) throws -> (board: String, message: String) {
        if let unknown = imported.lists.first(where: { !listKinds.contains($0.kind) }) {
            throw StoreError.invalid("the list “\(unknown.title.prefix(60))” is of a kind this server does not have (\(unknown.kind.prefix(40)))")
        }
        var made = imported
        let result = try createBoard(id: id, title: imported.title, color: imported.color, operationID: operationID, fingerprint: fingerprint) { tx in
            if !imported.labels.isEmpty { try tx.setLabels(BoardLabels(imported.labels)) }
            for list in imported.lists {
                let record = try tx.addList(ListRecord(id: UUID().uuidString.lowercased(), title: list.title, kind: list.kind, position: 0))
                let ids = try tx.insert(list.cards.map { NewItem(kind: $0.kind, title: $0.title, payload: $0.payload) }, at: Placement(listID: record.id))
                for (card, rowID) in zip(list.cards, ids) where !card.contents.isEmpty {
                    _ = try tx.insert(card.contents.map { NewItem(kind: $0.kind, title: $0.title, payload: $0.payload) },
                                      at: Placement(listID: record.id, containerID: rowID))
                }
            }
            if let creator { try tx.addOwner(creator) }
            var missing = 0
            for name in imported.members {
                guard let account = try tx.account(named: name), account.id != creator?.id else { missing += 1; continue }
                try tx.addMember(account, role: .editor)
            }
            made.skipped["member without an account here"] = missing
            try record(tx, made)
            let answer = try JSONSerialization.data(withJSONObject: ["board": id, "message": made.summary], options: [.sortedKeys])
            return String(decoding: answer, as: UTF8.self)
        }
        let stored = try JSONSerialization.jsonObject(with: Data(result.response.utf8)) as? [String: String] ?? [:]
        return (stored["board"] ?? id, stored["message"] ?? "")
    }

    /// The board in Dragboard's export format: its lists in order, each row with its kind, title,
    /// payload and (for a container) contents, the board's labels and colour.
    public func export(board id: String) throws -> BoardExport {
        try read(board: id) { tx in
            let record = try tx.board()
            func card(_ item: ItemRecord, in list: String) throws -> BoardExport.Card {
                let contents = try tx.rows(in: list, container: item.id)
                let details = CardDetails.of(payload: item.payload)
                return BoardExport.Card(id: item.id, kind: item.kind, title: item.title, payload: item.payload, details: details.isEmpty ? nil : details,
                                        contents: contents.isEmpty ? nil : try contents.map { try card($0, in: list) })
            }
            let lists = try tx.lists().map { list in
                BoardExport.List(id: list.id, title: list.title, kind: list.kind, cards: try tx.rows(in: list.id).map { try card($0, in: list.id) })
            }
            return BoardExport(board: .init(id: record.id, title: record.title, color: record.color,
                                            labels: try tx.labels().all), lists: lists)
        }
    }
}

extension BoardTransaction {
    /// The account named `name` (compared as sign-in compares it), if there is one.
    func account(named name: String) throws -> Account? {
        guard Account.nameProblem(name) == nil else { return nil }
        return try db.row(sql: "SELECT id, name, isAdmin FROM account WHERE nameKey = ?", arguments: [Account.nameKey(name)]).map(BoardStore.account)
    }

    /// Makes `account` a member of this board with `role` (in the transaction that creates it).
    func addMember(_ account: Account, role: BoardRole) throws {
        try db.execute(sql: "INSERT INTO member (boardID, accountID, role) VALUES (?, ?, ?) ON CONFLICT (boardID, accountID) DO NOTHING",
                       arguments: [boardID, account.id, role.rawValue])
    }
}
