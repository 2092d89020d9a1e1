extension Request {
    /// Parses `Cookie` header values (`a=1; b=2`) into a dictionary; the first occurrence of a name wins.
    static func parseCookies(_ headerValues: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for headerValue in headerValues {
            for pair in headerValue.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingSpaces()
                var value = pair[pair.index(after: equals)...].trimmingSpaces()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                if !name.isEmpty, cookies[name] == nil {
                    cookies[name] = value
                }
            }
        }
        return cookies
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and horizontal tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
