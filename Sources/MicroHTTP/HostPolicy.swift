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
        guard let name = Self.normalized(hostHeader.trimmingSpaces().lowercased()) else { return false }
        return names.contains(name)
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
