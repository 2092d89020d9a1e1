extension Request {
    /// Parses `Cookie` header values (`a=1; b=2`) into a dictionary; the first occurrence of a name wins.
    /// Split on bytes: `;`, `=`, spaces and tabs are ASCII, and every request has its cookies parsed.
    static func parseCookies(_ headerValues: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for headerValue in headerValues {
            for pair in headerValue.utf8.split(separator: UInt8(ascii: ";")) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = pair[..<equals].trimmingSpaceBytes()
                var value = pair[pair.index(after: equals)...].trimmingSpaceBytes()
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                if !name.isEmpty {
                    let name = String(Substring(name))
                    if cookies[name] == nil { cookies[name] = String(Substring(value)) }
                }
            }
        }
        return cookies
    }
}

extension Substring.UTF8View {
    /// The bytes without leading and trailing spaces and horizontal tabs.
    func trimmingSpaceBytes() -> Substring.UTF8View {
        var slice = self
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return slice
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
