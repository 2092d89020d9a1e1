import DragAndDrop
import Foundation

extension BoardKit {
    /// A row's representations, highest fidelity first: the server-only reference, what its
    /// kind registers (a custom type, a URL), HTML the server built and escaped, plain text.
    public func itemProvider(for item: BoardItem) -> ItemProvider {
        let kind = itemKind(item.kind)
        var provider = ItemProvider()
        provider.suggestedName = item.title
        provider.registerData(Data(item.id.utf8), forTypeIdentifier: Self.itemReference, visibility: .ownProcess)
        kind.registerRepresentations(of: item, in: &provider)
        provider.registerData(Data(kind.html(of: item).utf8), forTypeIdentifier: .html)
        provider.registerObject(kind.plainText(of: item))
        return provider
    }
}

/// HTML escaping for markup the server builds outside templates, such as an item kind's
/// ``ItemKind/html(of:)``.
public enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe as element text and in quoted attributes.
    public static func escape(_ text: String) -> String {
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
