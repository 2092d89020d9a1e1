import Dragboard
import DragboardStore
import Foundation

/// A card's details, the board's labels and its colour: edits like any other (one operation
/// each, undoable, live to every viewer), and the card's page the board's dialog shows.
extension BoardService {
    private var cardEdits: CardEdits { CardEdits(newID: Self.newID) }

    /// The card's page for `visitor` (read-only without the editor role).
    func cardPage(board: String, item itemID: String, visitor: Visitor, csrf: String) throws -> String {
        let page = try store.read(board: board) { tx in
            let item = try tx.itemOnBoard(itemID)
            let list = try tx.lists().first { $0.id == item.listID }
            return CardPage(board: try tx.board(), item: item, listTitle: list?.title ?? "", labels: try tx.labels(),
                            readOnly: !(visitor.access?.role ?? .owner).mayEdit)
        }
        return renderer.cardPage(page, csrf: csrf, op: Self.newID(), who: renderer.who(visitor.account, board: board, csrf: csrf))
    }

    /// Where a card's edits send a browser without JavaScript: back to the card.
    private static func cardLocation(_ board: String, _ item: String) -> String { "/boards/\(board)/cards/\(item)" }

    func saveCard(board: String, item: String, form: CardEdits.Form, op: String, author: ChangeAuthor?) throws -> EditResponse {
        var form = form
        form.title = try Self.checkedTitle(form.title)
        let fingerprint = Self.fingerprint("card", board, item, form.title, form.description, form.due, form.labels.joined(separator: ","))
        return try edit(board: board, op: op, author: author, fingerprint: fingerprint, location: Self.cardLocation(board, item)) { tx in
            try cardEdits.save(form, item: item, on: tx)
        }
    }

    func addCheck(board: String, item: String, title: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("new-check", board, item, title), location: Self.cardLocation(board, item)) { tx in
            try cardEdits.addCheck(title: title, item: item, on: tx)
        }
    }

    func setCheck(board: String, item: String, check: String, done: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        guard done == "true" || done == "false" else { throw DragboardError.badRequest("done is true or false") }
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("check", board, item, check, done), location: Self.cardLocation(board, item)) { tx in
            try cardEdits.setCheck(check, done: done == "true", item: item, on: tx)
        }
    }

    func deleteCheck(board: String, item: String, check: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("delete-check", board, item, check), location: Self.cardLocation(board, item)) { tx in
            try cardEdits.deleteCheck(check, item: item, on: tx)
        }
    }

    func moveCheck(board: String, item: String, check: String, index: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        guard let position = Int(index) else { throw DragboardError.badRequest("index is a whole number: the checklist position, from 0") }
        return try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("move-check", board, item, check, index), location: Self.cardLocation(board, item)) { tx in
            try cardEdits.moveCheck(check, to: position, item: item, on: tx)
        }
    }

    func addLabel(board: String, name: String, color: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("new-label", board, name, color)) { tx in
            try cardEdits.addLabel(name: name, color: color, on: tx)
        }
    }

    func editLabel(board: String, label: String, name: String, color: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("label", board, label, name, color)) { tx in
            try cardEdits.editLabel(label, name: name, color: color, on: tx)
        }
    }

    func deleteLabel(board: String, label: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("delete-label", board, label)) { tx in
            try cardEdits.deleteLabel(label, on: tx)
        }
    }

    func setColor(board: String, color: String, op: String, author: ChangeAuthor?) throws -> EditResponse {
        try edit(board: board, op: op, author: author, fingerprint: Self.fingerprint("color", board, color)) { tx in
            try cardEdits.setColor(color, on: tx)
        }
    }

    /// The ids of the board's cards a filter keeps (see ``CardSearch``).
    func search(board: String, query: String) throws -> [String] {
        let search = try CardSearch(query)
        return try store.read(board: board) { tx in
            let labels = try tx.labels()
            return try tx.everyRow().filter { search.matches($0, labels: labels) }.map(\.id)
        }
    }
}
