/// A parsed route pattern such as `/lists/:id/items/*`.
///
/// Segments are literals, `:name` parameters that capture one segment, or a trailing `*` that captures the
/// rest of the path (possibly empty) as the parameter `"*"`.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
    }

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        description = pattern
        var parsed: [Segment] = Self.split(pattern).map { segment in
            if segment == "*" { return .wildcard }
            if segment.hasPrefix(":"), segment.count > 1 { return .parameter(String(segment.dropFirst())) }
            return .literal(String(segment))
        }
        // A wildcard is only meaningful last; anywhere else it is a literal "*".
        for index in parsed.indices.dropLast() where parsed[index] == .wildcard {
            parsed[index] = .literal("*")
        }
        segments = parsed
    }

    /// Splits a path into segments: `/` → `[]`, `/a//b/` → `["a", "", "b", ""]`. On bytes (`/` is
    /// ASCII): every request's path is split.
    static func split(_ path: some StringProtocol) -> [Substring] {
        var bytes = Substring(path).utf8
        if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        return bytes.isEmpty ? [] : bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// Whether a path of `segmentCount` segments could match: exactly as many, or a wildcard covers the rest.
    func canMatch(segmentCount: Int) -> Bool {
        segments.last == .wildcard ? segmentCount >= segments.count - 1 : segmentCount == segments.count
    }

    /// Matches raw (still percent-encoded) path segments; returns the decoded captured parameters.
    func match(_ rawSegments: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .wildcard:
                let rest = rawSegments.dropFirst(index).joined(separator: "/")
                parameters["*"] = PercentDecoding.decode(rest)
                return parameters
            case .literal(let literal):
                guard index < rawSegments.count else { return nil }
                let raw = rawSegments[index]
                // Without an escape the raw segment is its decoded form: compared as is, no string made.
                let same = raw.containsByte(UInt8(ascii: "%")) ? PercentDecoding.decode(raw) == literal : raw == literal
                guard same else { return nil }
            case .parameter(let name):
                guard index < rawSegments.count, !rawSegments[index].isEmpty else { return nil }
                parameters[name] = PercentDecoding.decode(rawSegments[index])
            }
        }
        return rawSegments.count == segments.count ? parameters : nil
    }

    /// Ranks patterns so that literals beat parameters, which beat wildcards, segment by segment.
    var specificity: [Int] {
        segments.map { segment in
            switch segment {
            case .literal: 2
            case .parameter: 1
            case .wildcard: 0
            }
        }
    }
}
