extension HTTPError {
    /// `{"error":{"code":…,"message":…}}`, written by hand: errors such as 404 are answered at the rate of
    /// static files, and a `JSONEncoder` per response cost more than the rest of the request.
    var jsonBody: [UInt8] {
        var json = #"{"error":{"code":"#
        Self.appendQuoted(code, to: &json)
        json += #","message":"#
        Self.appendQuoted(message, to: &json)
        json += "}}"
        return Array(json.utf8)
    }

    /// Appends `text` as a JSON string literal (RFC 8259: quote, backslash and control characters escaped).
    static func appendQuoted(_ text: String, to json: inout String) {
        json.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case "\u{08}": json += "\\b"
            case "\u{0C}": json += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json.append("\"")
    }
}
