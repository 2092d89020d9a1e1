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
