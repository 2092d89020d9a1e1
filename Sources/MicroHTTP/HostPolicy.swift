/// The `Host` allow-list that stops DNS rebinding.
///
/// A rebinding attacker serves a page from `evil.example`, then points that name at our address: the
/// browser treats our answers as same-origin with the attacker's page, but still sends
/// `Host: evil.example`. Answering only to names we own makes those answers unreadable to it.
struct HostPolicy: Sendable {
    /// Lower-cased names without port; IPv6 literals in brackets, e.g. `[::1]`.
    let names: Set<String>

    /// Names that always reach this server from this machine.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// - Parameters:
    ///   - host: The bound address; added unless it is a wildcard (`0.0.0.0`, `::`), whose real names
    ///     cannot be guessed.
    ///   - allowedHosts: Extra names, e.g. from `--allowed-host`.
    init(host: String, allowedHosts: [String]) {
        var names = Self.loopbackNames
        let bound = host.lowercased()
        if bound != "0.0.0.0", bound != "::", bound != "[::]", !bound.isEmpty {
            names.insert(Self.bracketed(bound))
        }
        for name in allowedHosts {
            let trimmed = name.trimmingSpaces().lowercased()
            if !trimmed.isEmpty { names.insert(Self.normalized(trimmed) ?? Self.bracketed(trimmed)) }
        }
        self.names = names
    }

    /// Whether a `Host` header value names this server.
    func allows(_ hostHeader: String) -> Bool {
        // Every request asks this: an ASCII value is checked in place, without the strings `normalized` makes.
        var header = hostHeader
        if let verdict = header.withUTF8({ asciiVerdict($0) }) { return verdict }
        return allowsByNormalizing(hostHeader)
    }

    /// The reference rule: the value trimmed, lower-cased and ``normalized(_:)``, then looked up.
    func allowsByNormalizing(_ hostHeader: String) -> Bool {
        guard let name = Self.normalized(hostHeader.trimmingSpaces().lowercased()) else { return false }
        return names.contains(name)
    }

    /// ``allows(_:)`` for an ASCII value, by the rules of ``normalized(_:)``; `nil` for any other byte.
    private func asciiVerdict(_ value: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard value.allSatisfy({ $0 < 0x80 }) else { return nil }
        var start = 0, end = value.count
        while start < end, value[start] == 0x20 || value[start] == 0x09 { start += 1 }
        while end > start, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
        var nameEnd = end
        if start < end, value[start] == UInt8(ascii: "[") {
            guard let close = value[start..<end].firstIndex(of: UInt8(ascii: "]")) else { return false }
            nameEnd = close + 1
            guard nameEnd == end || Self.isPort(value[nameEnd..<end]) else { return false }
        } else if let colon = value[start..<end].firstIndex(of: UInt8(ascii: ":")) {
            nameEnd = colon
            guard Self.isPort(value[colon..<end]) else { return false }
        }
        if nameEnd > start, value[nameEnd - 1] == UInt8(ascii: ".") { nameEnd -= 1 }
        let name = UnsafeBufferPointer(rebasing: value[start..<nameEnd])
        // Unicode's White_Space within ASCII: tab to carriage return, and space.
        guard !name.isEmpty,
            !name.contains(where: { (0x09...0x0D).contains($0) || $0 == 0x20 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") })
        else { return false }
        return names.contains { allowed in
            allowed.utf8.elementsEqual(name) { a, b in a == (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        }
    }

    /// `:` followed by 1 to 5 ASCII digits.
    private static func isPort(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard bytes.first == UInt8(ascii: ":") else { return false }
        let digits = bytes.dropFirst()
        return (1...5).contains(digits.count) && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The host part of a `Host` value (port removed, one trailing dot removed), or `nil` if malformed.
    /// - `example.com:8080` → `example.com`; `[::1]:80` → `[::1]`; `localhost.` → `localhost`.
    static func normalized(_ value: String) -> String? {
        var name: Substring
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            name = value[...close]
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest) else { return nil }
        } else {
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            if parts.count == 2, !Self.isPort(":" + parts[1]) { return nil }
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.allSatisfy({ !$0.isWhitespace && $0 != "/" && $0 != "@" }) else { return nil }
        return String(name)
    }

    /// `:` followed by 1 to 5 digits.
    private static func isPort(_ text: Substring) -> Bool {
        guard text.first == ":" else { return false }
        let digits = text.dropFirst()
        return (1...5).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// An IPv6 literal in brackets, as it appears in `Host`.
    private static func bracketed(_ address: String) -> String {
        address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
    }
}
