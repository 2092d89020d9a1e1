/// An HTTP response produced by a route handler.
public struct Response: Sendable {
    /// The status line.
    public var status: HTTPStatus
    /// Header fields; the server adds its default headers (security headers) for names not set here.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// The error whose JSON this body is, so the server can answer a browser with its HTML page instead.
    var problem: HTTPError?

    /// A response body.
    public enum Body: Sendable {
        /// A complete body sent with a `Content-Length`.
        case bytes([UInt8])
        /// A Server-Sent Events stream. The closure is called once the stream exists; keep the
        /// ``EventStream`` to send events from any thread, and learn about disconnects with ``EventStream/onClose(_:)``.
        case eventStream(@Sendable (EventStream) -> Void)
    }

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status, `200 OK` by default.
    ///   - headers: Header fields.
    ///   - body: The body, empty by default.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body bytes, or an empty array for an event stream.
    var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}
