import Foundation

/// Which cards a board's filter box keeps: those whose title, description or label names hold
/// the words typed, ignoring case and accents.
public struct CardSearch: Sendable {
    public let query: String
    /// A query has at most this many characters.
    public static let maximumLength = 200

    public init(_ query: String) throws {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard query.count <= Self.maximumLength else {
            throw DragboardError.badRequest("a filter has at most \(Self.maximumLength) characters")
        }
        self.query = query
    }

    public func matches(_ item: ItemRecord, labels: BoardLabels) -> Bool {
        guard !query.isEmpty else { return true }
        if Self.contains(item.title, query) { return true }
        let details = CardDetails.of(payload: item.payload)
        if Self.contains(details.description, query) { return true }
        return details.labels.contains { labels[$0].map { Self.contains($0.name, query) } ?? false }
    }

    private static func contains(_ text: String, _ query: String) -> Bool {
        text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
}
