import Foundation

/// One change to a board as its activity tells it: who, what (in words), when.
public struct Activity: Sendable, Hashable {
    /// Its place in the order of every board's activity (newer is larger).
    public var seq: Int
    public var board: String
    /// The board's version the change made.
    public var version: Int
    /// Who made it (``someone`` where nobody signs in).
    public var author: String
    /// "alice moved “Card 7” to Done".
    public var words: String
    public var date: Date

    public init(seq: Int, board: String, version: Int, author: String, words: String, date: Date) {
        self.seq = seq
        self.board = board
        self.version = version
        self.author = author
        self.words = words
        self.date = date
    }

    /// The author of a change on a server where nobody signs in.
    public static let someone = "Someone"

    /// A change's message ("Moved “Card 7” to Done.") told of its author: "alice moved “Card 7” to Done".
    public static func words(of author: String, _ message: String) -> String {
        // Foundation's `.whitespaces` (spaces and tabs), trimmed without a trip through NSString: every change says this.
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        var message = Substring(message)
        while let last = message.last, isSpace(last) { message.removeLast() }
        while let first = message.first, isSpace(first) { message.removeFirst() }
        if message.hasSuffix(".") { message.removeLast() }
        guard let first = message.first else { return author }
        // The first word is the message's verb ("Moved", "Renamed"): lower-cased after a name.
        let lowered = first.isUppercase && !(message.dropFirst().first?.isUppercase ?? false) ? first.lowercased() + message.dropFirst() : String(message)
        return "\(author) \(lowered)"
    }
}
