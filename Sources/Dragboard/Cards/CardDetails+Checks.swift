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

/// A calendar day as a due date is: no time, no zone (a card due on the 3rd is due on the 3rd
/// wherever it is read).
public struct DueDate: Sendable, Equatable, Comparable {
    public var year: Int, month: Int, day: Int

    /// The day `text` names as `YYYY-MM-DD`, when it is a real day of years 1000…9999.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1000...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    public static func < (a: DueDate, b: DueDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The day as people read it on a badge: "3 Dec 2026".
    public var words: String { "\(day) \(Self.months[month - 1]) \(year)" }
}
