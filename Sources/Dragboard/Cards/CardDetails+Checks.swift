import Foundation

/// The rules every detail edit is held to; each refusal is a ``DragboardError/badRequest(_:)``
/// in words, and the edit changes nothing.
extension CardDetails {
    /// `text` when it fits a description. Line ends are kept as the browser sent them, in `\n`.
    public static func checkedDescription(_ text: String) throws -> String {
        let text = text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= maximumDescriptionLength else {
            throw DragboardError.badRequest("A description has at most \(maximumDescriptionLength.formatted()) characters; this one has \(text.count.formatted())")
        }
        if let problem = TextRules.problem(in: text, keepingLines: true) { throw DragboardError.badRequest("The description cannot be kept: \(problem)") }
        return text
    }

    /// The day `text` names (`YYYY-MM-DD`, as `<input type="date">` sends it), nil for none.
    public static func checkedDue(_ text: String) throws -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard DueDate(text) != nil else { throw DragboardError.badRequest("“\(text.prefix(40))” is not a date (year-month-day, like 2026-12-31)") }
        return text
    }

    /// `ids`, each a label of the board, in the board's order, once each.
    public static func checkedLabels(_ ids: [String], of board: BoardLabels) throws -> [String] {
        for id in ids where board[id] == nil {
            throw DragboardError.badRequest("“\(id.prefix(40))” is not a label of this board")
        }
        let chosen = Set(ids)
        return board.all.map(\.id).filter(chosen.contains)
    }

    /// A checklist item's title, trimmed: one line of 1…500 characters.
    public static func checkedCheckTitle(_ text: String) throws -> String {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw DragboardError.badRequest("A checklist item needs a title") }
        guard text.count <= maximumCheckTitleLength else {
            throw DragboardError.badRequest("A checklist item has at most \(maximumCheckTitleLength) characters; this one has \(text.count)")
        }
        guard !text.contains(where: \.isNewline) else { throw DragboardError.badRequest("A checklist item is one line") }
        if let problem = TextRules.problem(in: text) { throw DragboardError.badRequest("The checklist item cannot be kept: \(problem)") }
        return text
    }

    /// The index of the checklist item `id`. - Throws: ``DragboardError/notFound(_:)``.
    public func checkIndex(_ id: String) throws -> Int {
        guard let index = checklist.firstIndex(where: { $0.id == id }) else {
            throw DragboardError.notFound("this card has no checklist item “\(id.prefix(40))”; someone may have deleted it")
        }
        return index
    }
}
