import DragAndDrop
import Foundation

extension BoardItem {
    /// The item's representations, highest fidelity first: its custom type, HTML the server
    /// built and escaped, a URI list for links, plain text; and the server-only reference.
    public var itemProvider: ItemProvider {
        var provider = ItemProvider()
        provider.suggestedName = title
        let id = self.id
        provider.registerData(Data(id.utf8), forTypeIdentifier: BoardTypes.itemReference, visibility: .ownProcess)
        switch kind {
        case .person:
            provider.registerObject(PersonValue(name: title, age: age ?? 0))
        case .toy:
            provider.registerData(Self.json(["title": title]), forTypeIdentifier: BoardTypes.toy)
        case .box:
            provider.registerData(Self.json(["title": title]), forTypeIdentifier: BoardTypes.box)
        case .link:
            if let url { provider.registerData(Data("\(url)\r\n".utf8), forTypeIdentifier: .url) }
        case .place, .text:
            break
        }
        provider.registerData(Data(html.utf8), forTypeIdentifier: .html)
        provider.registerObject(plainText)
        return provider
    }

    /// Formatted markup for rich editors; every value escaped.
    var html: String {
        let title = HTMLEscaping.escape(self.title)
        switch kind {
        case .person: return "<p><strong>\(title)</strong>, \(age ?? 0)</p>"
        case .link: return "<a href=\"\(HTMLEscaping.escape(url ?? ""))\">\(title)</a>"
        default: return "<p><strong>\(title)</strong></p>"
        }
    }

    private static func json(_ object: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}

/// HTML escaping for markup the server builds outside templates.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
