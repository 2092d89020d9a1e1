extension Request {
    /// Applies what a trusted reverse proxy says about the client: the address it connected from
    /// (the last `X-Forwarded-For` entry the proxy appended), whether it spoke HTTPS
    /// (`X-Forwarded-Proto`) and the host it asked for (`X-Forwarded-Host`, which then stands for
    /// `Host` in the host check and the origin check). Only called for requests whose peer is a
    /// configured trusted proxy: from anyone else these headers are the client's own words and are ignored.
    mutating func applyForwarding() {
        if let chain = headers.values("X-Forwarded-For").last {
            let client = chain.split(separator: ",").last.map { String($0).trimmingSpaces() } ?? ""
            if Self.isNumericAddress(client) { remoteAddress = client }
        }
        if let host = headers["X-Forwarded-Host"]?.split(separator: ",").first.map({ String($0).trimmingSpaces() }), !host.isEmpty {
            headers["Host"] = host
        }
        if let proto = headers["X-Forwarded-Proto"]?.split(separator: ",").first.map({ String($0).trimmingSpaces().lowercased() }) {
            isHTTPS = proto == "https"
        }
    }

    /// An IPv4 or IPv6 address in numeric form (what a proxy writes), nothing else.
    static func isNumericAddress(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 45 else { return false }
        if text.contains(":") { return text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && part.allSatisfy(\.isASCII) && Int(part).map { (0...255).contains($0) } == true }
    }
}
