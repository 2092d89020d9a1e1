import Foundation

/// What a card holds besides its title: a description, a due date, the board's labels it
/// wears, and a checklist. Kept in the row's payload under `details`, beside what its kind
/// keeps there, so a move, a copy, a move to another board and the undo history carry it
/// like the rest of the row without a table of their own.
public struct CardDetails: Sendable, Codable, Equatable {
    /// Plain text; shown with its line breaks and its http(s) addresses as links, never as HTML.
    public var description: String
    /// A day, `YYYY-MM-DD` (see ``DueDate``), or nil.
    public var due: String?
    /// Ids of the board's labels, in the board's order.
    public var labels: [String]
    public var checklist: [CheckItem]

    public init(description: String = "", due: String? = nil, labels: [String] = [], checklist: [CheckItem] = []) {
        self.description = description
        self.due = due
        self.labels = labels
        self.checklist = checklist
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        due = try container.decodeIfPresent(String.self, forKey: .due)
        labels = try container.decodeIfPresent([String].self, forKey: .labels) ?? []
        checklist = try container.decodeIfPresent([CheckItem].self, forKey: .checklist) ?? []
    }

    public var isEmpty: Bool { description.isEmpty && due == nil && labels.isEmpty && checklist.isEmpty }

    /// How many checklist items are done.
    public var checkedCount: Int { checklist.count { $0.done } }

    /// The limits every edit is held to.
    public static let maximumDescriptionLength = 10_000
    public static let maximumChecklistCount = 100
    public static let maximumCheckTitleLength = 500
}

/// One item of a card's checklist.
public struct CheckItem: Sendable, Codable, Equatable {
    public var id: String
    public var title: String
    public var done: Bool

    public init(id: String, title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }
}

extension CardDetails {
    private static let key = "details"

    /// The details a row's payload holds (none when it holds none).
    public static func of(payload: String) -> CardDetails {
        // Most rows have none: skip the decoder for them (this runs for every row of a page).
        guard payload.utf8.count > 2, payload.contains("\"\(key)\"") else { return CardDetails() }
        struct Holder: Decodable { var details: CardDetails? }
        return (try? JSONDecoder().decode(Holder.self, from: Data(payload.utf8)))?.details ?? CardDetails()
    }

    /// `payload` with these details in it (and none when they are empty); the kind's own keys stay.
    public func stored(in payload: String) -> String {
        var object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:]
        if isEmpty {
            object[Self.key] = nil
        } else {
            let encoded = BoardItem.payload(self)
            object[Self.key] = try? JSONSerialization.jsonObject(with: Data(encoded.utf8))
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return payload }
        return String(decoding: data, as: UTF8.self)
    }
}

extension BoardItem {
    /// The card's details (see ``CardDetails``).
    public var details: CardDetails { CardDetails.of(payload: payload) }
}
