import Foundation

/// A card's description as the card shows it: its text escaped, its line breaks kept, and its
/// http(s) addresses made links that leave the page (nothing else a person types is markup).
extension CardDetails {
    public var descriptionHTML: String {
        description.split(separator: "\n", omittingEmptySubsequences: false)
            .map { Self.linked(String($0)) }
            .joined(separator: "<br>\n")
    }

    /// One line with its addresses as links.
    static func linked(_ line: String) -> String {
        var html = "", rest = Substring(line)
        while let start = Self.addressStart(in: rest) {
            html += HTMLEscaping.escape(String(rest[..<start]))
            var end = rest[start...].firstIndex(where: { $0.isWhitespace || "<>\"".contains($0) }) ?? rest.endIndex
            // Trailing punctuation ends the sentence, not the address.
            while end > start, let last = rest[..<end].last, ".,;:!?)]'".contains(last) { end = rest.index(before: end) }
            let address = String(rest[start..<end])
            let escaped = HTMLEscaping.escape(address)
            html += "<a href=\"\(escaped)\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">\(escaped)</a>"
            rest = rest[end...]
        }
        return html + HTMLEscaping.escape(String(rest))
    }

    private static func addressStart(in text: Substring) -> Substring.Index? {
        var search = text[...]
        while let range = search.range(of: "http", options: .caseInsensitive) {
            let after = text[range.upperBound...]
            let scheme = after.hasPrefix("://") || after.lowercased().hasPrefix("s://")
            let atWordStart = range.lowerBound == text.startIndex || !text[text.index(before: range.lowerBound)].isLetter
            let tail = after.drop(while: { $0 != "/" }).dropFirst(2)
            if scheme, atWordStart, let first = tail.first, !first.isWhitespace { return range.lowerBound }
            search = text[range.upperBound...]
        }
        return nil
    }
}

