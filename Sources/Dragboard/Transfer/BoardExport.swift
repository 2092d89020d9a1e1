import Foundation

/// A board in Dragboard's export format (`GET /boards/<id>/export.json`, `dragboard export`),
/// documented with a JSON Schema in `docs/export-schema.json`. Importing it makes the same board:
/// the same lists and rows in the same order, with their kinds, titles and payloads (card
/// details included), and the board's labels and colour.
public struct BoardExport: Codable, Sendable, Equatable {
    /// What the file is: always `dragboard-board`.
    public var format: String
    /// The format's version: ``currentVersion``; a later one is refused with words.
    public var version: Int
    public var exportedAt: String
    public var board: Board
    public var lists: [List]

    public static let formatName = "dragboard-board"
    public static let currentVersion = 1

    public struct Board: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var color: PaletteColor
        public var labels: [BoardLabel]

        public init(id: String, title: String, color: PaletteColor, labels: [BoardLabel]) {
            (self.id, self.title, self.color, self.labels) = (id, title, color, labels)
        }
    }

    public struct List: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var kind: String
        public var cards: [Card]

        public init(id: String, title: String, kind: String, cards: [Card]) {
            (self.id, self.title, self.kind, self.cards) = (id, title, kind, cards)
        }
    }

    public struct Card: Codable, Sendable, Equatable {
        public var id: String
        public var kind: String
        public var title: String
        /// The row's payload as stored: a JSON object, in a string (its shape is the kind's).
        public var payload: String
        /// The card's details read from the payload, for readers of the file (import ignores them).
        public var details: CardDetails?
        /// A container's rows.
        public var contents: [Card]?

        public init(id: String, kind: String, title: String, payload: String, details: CardDetails? = nil, contents: [Card]? = nil) {
            (self.id, self.kind, self.title, self.payload, self.details, self.contents) = (id, kind, title, payload, details, contents)
        }
    }

    public init(board: Board, lists: [List], exportedAt: Date = Date()) {
        format = Self.formatName
        version = Self.currentVersion
        self.exportedAt = ISO8601DateFormatter().string(from: exportedAt)
        self.board = board
        self.lists = lists
    }

    /// Whether `bytes` are in this format (rather than another app's export): its top-level `format`.
    public static func isExport(_ bytes: [UInt8]) -> Bool {
        struct Probe: Decodable { var format: String? }
        return (try? JSONDecoder().decode(Probe.self, from: Data(bytes)))?.format == formatName
    }
}

extension BoardImport {
    /// The board a Dragboard export holds.
    /// - Throws: ``DragboardError`` with words when the file is not one, is of a later version, or too big.
    public init(export bytes: [UInt8]) throws {
        try Self.checkShape(bytes)
        let export: BoardExport
        do {
            export = try JSONDecoder().decode(BoardExport.self, from: Data(bytes))
        } catch {
            throw DragboardError.unprocessable("the file is not a Dragboard board export (\(Self.reason(error)))")
        }
        guard export.format == BoardExport.formatName else { throw DragboardError.unprocessable("the file is not a Dragboard board export") }
        guard export.version <= BoardExport.currentVersion else {
            throw DragboardError.unprocessable("the export is of format version \(export.version); this server reads up to \(BoardExport.currentVersion)")
        }
        func converted(_ card: BoardExport.Card) throws -> Card {
            guard (try? JSONSerialization.jsonObject(with: Data(card.payload.utf8))) is [String: Any] else {
                throw DragboardError.unprocessable("the payload of “\(card.title.prefix(60))” is not a JSON object")
            }
            return Card(kind: ImportedText.line(card.kind), title: ImportedText.title(card.title), payload: card.payload, contents: try (card.contents ?? []).map(converted))
        }
        self.init(title: ImportedText.title(export.board.title, fallback: "Imported board"), color: export.board.color,
                  labels: Array(export.board.labels.prefix(BoardLabel.maximumCount)),
                  lists: try export.lists.map { List(title: ImportedText.title($0.title), kind: ImportedText.line($0.kind), cards: try $0.cards.map(converted)) },
                  members: [], skipped: [:])
        try checkCounts()
    }

    /// Reads either format: Dragboard's own export, or Trello's.
    public init(file bytes: [UInt8]) throws {
        try Self.checkShape(bytes)
        if BoardExport.isExport(bytes) { try self.init(export: bytes) } else { try self.init(trello: bytes) }
    }
}
