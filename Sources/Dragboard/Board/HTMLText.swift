import DragAndDrop
import Foundation

/// Text read from dropped HTML: tags dropped, entities decoded, whitespace collapsed. Dropped
/// HTML is never inserted as markup.
struct HTMLText: ItemProviderReading {
    var text: String

    static var readableTypeIdentifiers: [TypeIdentifier] { [.html] }

    static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> HTMLText {
        var html = String(decoding: data, as: UTF8.self)
        // Script and style bodies are code, not text.
        for element in ["script", "style"] {
            while let open = html.range(of: "<\(element)", options: .caseInsensitive) {
                let close = html.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
                html.removeSubrange(open.lowerBound..<(close?.upperBound ?? html.endIndex))
            }
        }
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; text.append(" ") }
            else if character == ">" { inTag = false }
            else if !inTag { text.append(character) }
        }
        let entities = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&nbsp;": " ", "&amp;": "&"]
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        let words = text.split(whereSeparator: \.isWhitespace)
        return HTMLText(text: words.joined(separator: " "))
    }
}
