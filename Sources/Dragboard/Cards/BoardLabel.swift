import Foundation

/// A label of a board: a name and a colour of the palette. Cards name their labels by id, so a
/// renamed label is renamed on every card, and a deleted one leaves them (its undo brings it back).
public struct BoardLabel: Sendable, Codable, Equatable, Hashable {
    public var id: String
    public var name: String
    public var color: PaletteColor

    public init(id: String, name: String, color: PaletteColor) {
        self.id = id
        self.name = name
        self.color = color
    }

    /// A board keeps at most this many labels.
    public static let maximumCount = 50
    /// A label's name has at most this many characters.
    public static let maximumNameLength = 60

    /// `name` trimmed, when it is one line of 1…60 characters. - Throws: ``DragboardError/badRequest(_:)``.
    public static func checkedName(_ name: String) throws -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw DragboardError.badRequest("A label needs a name") }
        guard name.count <= maximumNameLength else {
            throw DragboardError.badRequest("A label's name has at most \(maximumNameLength) characters; this one has \(name.count)")
        }
        guard !name.contains(where: \.isNewline) else { throw DragboardError.badRequest("A label's name is one line") }
        if let problem = TextRules.problem(in: name) { throw DragboardError.badRequest("The label's name cannot be kept: \(problem)") }
        return name
    }
}

/// A board's labels, in the order they were made, as the store keeps them (a JSON array).
public struct BoardLabels: Sendable, Equatable {
    public var all: [BoardLabel]

    public init(_ all: [BoardLabel] = []) { self.all = all }

    /// The label with this id.
    public subscript(id: String) -> BoardLabel? { all.first { $0.id == id } }

    /// The labels as the store keeps them.
    public var json: String { BoardItem.payload(all) }

    /// The labels the store kept as `json`; none when it does not decode.
    public init(json: String) {
        self.all = (try? JSONDecoder().decode([BoardLabel].self, from: Data(json.utf8))) ?? []
    }
}
