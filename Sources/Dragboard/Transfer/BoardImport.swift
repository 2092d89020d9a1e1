import Foundation

/// A board to create from an export: another app's (``init(trello:)``) or Dragboard's own
/// (``init(export:)``). The store makes it in one operation, so a refused import creates nothing.
public struct BoardImport: Sendable, Equatable {
    /// A row to create, with its kind's payload (card details included) and, for a container, its contents.
    public struct Card: Sendable, Equatable {
        public var kind: String
        public var title: String
        public var payload: String
        public var contents: [Card]

        public init(kind: String, title: String, payload: String = "{}", contents: [Card] = []) {
            self.kind = kind
            self.title = title
            self.payload = payload
            self.contents = contents
        }
    }

    /// A list to create, in board order.
    public struct List: Sendable, Equatable {
        public var title: String
        public var kind: String
        public var cards: [Card]

        public init(title: String, kind: String, cards: [Card]) {
            self.title = title
            self.kind = kind
            self.cards = cards
        }
    }

    public var title: String
    public var color: PaletteColor
    public var labels: [BoardLabel]
    public var lists: [List]
    /// User names to make members (editors) of the new board, where an account has the name.
    public var members: [String]
    /// What was left out and how many, by what it is in the singular, e.g. `["archived card": 3]`.
    public var skipped: [String: Int]

    /// The most an import may hold: far beyond a real board, far below what would hurt the server.
    public static let maximumBytes = 50 * 1024 * 1024
    public static let maximumLists = 1_000
    public static let maximumCards = 20_000
    /// JSON deeper than this is refused before it is decoded (a real export nests about 6 deep).
    static let maximumDepth = 64

    /// Every row the import creates, contents included.
    public var cardCount: Int {
        func count(_ cards: [Card]) -> Int { cards.reduce(cards.count) { $0 + count($1.contents) } }
        return lists.reduce(0) { $0 + count($1.cards) }
    }

    /// "Imported 3 lists and 41 cards; skipped 2 archived lists and 5 archived cards."
    public var summary: String {
        var words = "Imported \(Self.counted(lists.count, "list")) and \(Self.counted(cardCount, "card")) into “\(title)”"
        let left = skipped.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { Self.counted($0.value, $0.key) }
        if !left.isEmpty { words += "; skipped " + left.joined(separator: ", ") }
        return words + "."
    }

    /// "1 archived card", "2 archived cards", "2 members without an account here" (the first word
    /// of a phrase with "of"/"without" takes the plural).
    static func counted(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "\(count) \(noun)" }
        var words = noun.split(separator: " ").map(String.init)
        let head = words.firstIndex { ["of", "without", "over"].contains($0) }.map { $0 - 1 } ?? words.count - 1
        if head >= 0 { words[head] += "s" }
        return "\(count) " + words.joined(separator: " ")
    }

    /// Refuses what is too big or too deep to decode safely, before decoding.
    static func checkShape(_ bytes: [UInt8]) throws {
        guard bytes.count <= maximumBytes else {
            throw DragboardError.tooLarge("an import is at most \(maximumBytes / 1024 / 1024) MB; this file is \(bytes.count / 1024 / 1024) MB")
        }
        var depth = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= maximumDepth else { throw DragboardError.unprocessable("the file nests deeper than \(maximumDepth) levels; it is not a board export") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }

    /// Checks the counts once the file is read.
    func checkCounts() throws {
        guard lists.count <= Self.maximumLists else { throw DragboardError.unprocessable("the board has \(lists.count) lists; an import takes at most \(Self.maximumLists)") }
        guard cardCount <= Self.maximumCards else { throw DragboardError.unprocessable("the board has \(cardCount) cards; an import takes at most \(Self.maximumCards)") }
    }
}

/// Text from a file, made fit to store: no control characters, within the length a field takes.
enum ImportedText {
    static func title(_ text: String?, fallback: String = "Untitled") -> String {
        let cleaned = line(text ?? "")
        return cleaned.isEmpty ? fallback : String(cleaned.prefix(500))
    }

    /// One line: line breaks and tabs become spaces, other control characters and non-characters go.
    static func line(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" { scalars.append(" ") } else if !isUnwanted(scalar) { scalars.append(scalar) }
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }

    /// Several lines: control characters but line breaks go.
    static func paragraphs(_ text: String, limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar == "\n" || !isUnwanted(scalar) { scalars.append(scalar) }
        return String(String(scalars).prefix(limit))
    }

    private static func isUnwanted(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }
}
