import Foundation

extension BoardExport {
    /// The board's cards as CSV (RFC 4180, one row per card, contents after their container):
    /// list, title, description, due, labels, checklist ("done/total"), kind. A cell a spreadsheet
    /// would take for a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`.
    public var csv: String {
        var lines = [["list", "title", "description", "due", "labels", "checklist", "kind"].map(Self.cell).joined(separator: ",")]
        let names = Dictionary(board.labels.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        func add(_ card: Card, list: String) {
            let details = card.details ?? CardDetails()
            let labels = details.labels.compactMap { names[$0] }.joined(separator: "; ")
            let checklist = details.checklist.isEmpty ? "" : "\(details.checkedCount)/\(details.checklist.count)"
            lines.append([list, card.title, details.description, details.due ?? "", labels, checklist, card.kind].map(Self.cell).joined(separator: ","))
            for inner in card.contents ?? [] { add(inner, list: list) }
        }
        for list in lists {
            for card in list.cards { add(card, list: list.title) }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func cell(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
