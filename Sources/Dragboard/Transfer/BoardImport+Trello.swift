import Foundation

extension BoardImport {
    /// A board from Trello's JSON export (the board's menu → Print, export and share → Export as JSON):
    /// open lists in order, their open cards in order with title, description, due date, labels
    /// (their colours mapped to the palette), checklists with what is done, and attachments as links
    /// in the description; archived lists and cards are skipped and counted; the board's members are
    /// named for membership where an account has their user name.
    /// - Throws: ``DragboardError`` with words when the file is not such an export, or too big.
    public init(trello bytes: [UInt8]) throws {
        try Self.checkShape(bytes)
        let board: TrelloBoard
        do {
            board = try JSONDecoder().decode(TrelloBoard.self, from: Data(bytes))
        } catch {
            throw DragboardError.unprocessable("the file is not a Trello board export (\(Self.reason(error)))")
        }
        var skipped: [String: Int] = [:]
        // Labels with a name or a colour; Trello lets a board have unnamed coloured ones.
        var labels: [BoardLabel] = []
        var labelIDs: [String: String] = [:]
        for label in board.labels ?? [] where labels.count < BoardLabel.maximumCount {
            let name = String(ImportedText.line(label.name ?? "").prefix(BoardLabel.maximumNameLength))
            let color = Self.paletteColor(trello: label.color)
            let shown = name.isEmpty ? color.rawValue.capitalized : name
            if let same = labels.first(where: { $0.name == shown && $0.color == color }) {
                labelIDs[label.id] = same.id
                continue
            }
            let id = UUID().uuidString.lowercased()
            labelIDs[label.id] = id
            labels.append(BoardLabel(id: id, name: shown, color: color))
        }
        skipped["label over the board's 50"] = max(0, (board.labels?.count ?? 0) - labelIDs.count)

        let checklists = Dictionary(grouping: board.checklists ?? [], by: \.idCard)
        let openLists = (board.lists ?? []).filter { $0.closed != true }
        skipped["archived list"] = (board.lists ?? []).count - openLists.count
        let cardsByList = Dictionary(grouping: board.cards ?? [], by: \.idList)
        var lists: [List] = []
        for list in openLists.sorted(by: { ($0.pos ?? 0) < ($1.pos ?? 0) }) {
            let cards = (cardsByList[list.id] ?? []).sorted { ($0.pos ?? 0) < ($1.pos ?? 0) }
            let open = cards.filter { $0.closed != true }
            skipped["archived card", default: 0] += cards.count - open.count
            lists.append(List(title: ImportedText.title(list.name), kind: CardsList.id, cards: open.map { card in
                Card(kind: "text", title: ImportedText.title(card.name), payload: Self.details(of: card, checklists: checklists[card.id] ?? [], labels: labelIDs).stored(in: "{}"))
            }))
        }
        let listed = Set(openLists.map(\.id))
        skipped["archived card", default: 0] += (board.cards ?? []).filter { !listed.contains($0.idList) && $0.closed == true }.count
        skipped["card of an archived list"] = (board.cards ?? []).filter { !listed.contains($0.idList) && $0.closed != true }.count
        self.init(title: ImportedText.title(board.name, fallback: "Imported board"), color: Self.paletteColor(trello: board.prefs?.background),
                  labels: labels, lists: lists, members: (board.members ?? []).compactMap(\.username), skipped: skipped)
        try checkCounts()
    }

    private static func details(of card: TrelloCard, checklists: [TrelloChecklist], labels: [String: String]) -> CardDetails {
        var description = card.desc ?? ""
        let links = (card.attachments ?? []).compactMap { attachment -> String? in
            guard let url = attachment.url, url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
            return "- \(ImportedText.line(attachment.name ?? url)): \(url)"
        }
        if !links.isEmpty { description += (description.isEmpty ? "" : "\n\n") + "Attachments:\n" + links.joined(separator: "\n") }
        var checks: [CheckItem] = []
        for checklist in checklists.sorted(by: { ($0.pos ?? 0) < ($1.pos ?? 0) }) {
            for item in (checklist.checkItems ?? []).sorted(by: { ($0.pos ?? 0) < ($1.pos ?? 0) }) where checks.count < CardDetails.maximumChecklistCount {
                let title = String(ImportedText.line(item.name ?? "").prefix(CardDetails.maximumCheckTitleLength))
                guard !title.isEmpty else { continue }
                checks.append(CheckItem(id: UUID().uuidString.lowercased(), title: title, done: item.state == "complete"))
            }
        }
        var seen = Set<String>()
        let worn = (card.idLabels ?? []).compactMap { labels[$0] }.filter { seen.insert($0).inserted }
        return CardDetails(description: ImportedText.paragraphs(description, limit: CardDetails.maximumDescriptionLength),
                           due: card.due.flatMap(Self.day), labels: worn, checklist: checks)
    }

    /// `2026-12-24T17:00:00.000Z` → `2026-12-24` (the day, as Trello shows it in UTC).
    static func day(_ timestamp: String) -> String? {
        let day = String(timestamp.prefix(10))
        return DueDate(day) != nil ? day : nil
    }

    /// Trello's label and background colours (`sky`, `lime`, `green_dark`…) to the nearest of the palette.
    static func paletteColor(trello name: String?) -> PaletteColor {
        let base = (name ?? "").lowercased().replacingOccurrences(of: "_dark", with: "").replacingOccurrences(of: "_light", with: "")
        switch base {
        case "green", "lime": return .green
        case "yellow": return .yellow
        case "orange": return .orange
        case "red": return .red
        case "purple": return .purple
        case "blue": return .blue
        case "sky": return .teal
        case "pink": return .pink
        default: return .grey
        }
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "unexpected shape at \(path.isEmpty ? "the top" : path)"
        case DecodingError.dataCorrupted: return "not valid JSON"
        default: return "unreadable"
        }
    }
}

/// The parts of Trello's board export that are imported (everything else is ignored).
struct TrelloBoard: Decodable {
    struct Prefs: Decodable { var background: String? }
    struct Label: Decodable { var id: String; var name: String?; var color: String? }
    struct List: Decodable { var id: String; var name: String?; var closed: Bool?; var pos: Double? }
    struct Member: Decodable { var username: String? }
    var name: String?
    var prefs: Prefs?
    var labels: [Label]?
    var lists: [List]?
    var cards: [TrelloCard]?
    var checklists: [TrelloChecklist]?
    var members: [Member]?
}

struct TrelloCard: Decodable {
    struct Attachment: Decodable { var name: String?; var url: String? }
    var id: String
    var name: String?
    var desc: String?
    var closed: Bool?
    var pos: Double?
    var idList: String
    var due: String?
    var idLabels: [String]?
    var attachments: [Attachment]?
}

struct TrelloChecklist: Decodable {
    struct Item: Decodable { var name: String?; var state: String?; var pos: Double? }
    var idCard: String
    var pos: Double?
    var checkItems: [Item]?
}
