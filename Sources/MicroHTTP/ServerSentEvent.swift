/// One Server-Sent Event as the bytes on the wire, formatted once: a change sent to thousands of
/// streams costs one formatting, not one per stream.
///
/// ```swift
/// let event = ServerSentEvent(event: "changes", id: "42", data: json)
/// for stream in viewers { stream.send(event) }
/// ```
public struct ServerSentEvent: Sendable {
    /// The `event:`, `id:` and `data:` lines and the blank line that ends the event.
    public let bytes: [UInt8]

    /// Formats an event. Multi-line `data` becomes several `data:` lines; line breaks in `event` and
    /// `id` are removed.
    public init(event: String? = nil, id: String? = nil, data: String) {
        var text = ""
        if let event { text += "event: " + Self.singleLine(event) + "\n" }
        if let id { text += "id: " + Self.singleLine(id) + "\n" }
        let normalized = data.replacingCRLF()
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: " + line + "\n"
        }
        bytes = Array((text + "\n").utf8)
    }

    /// Several events as one write: a stream sends them with one call (one `send` to the socket).
    public init(_ events: some Sequence<ServerSentEvent>) {
        bytes = events.reduce(into: []) { $0 += $1.bytes }
    }

    static func singleLine(_ string: String) -> String {
        String(string.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
    }
}
