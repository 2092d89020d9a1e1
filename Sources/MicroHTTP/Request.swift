/// An HTTP request as seen by a route handler.
///
/// The server fills every field; tests can build one directly and pass it to ``Router/respond(to:)``:
/// ```swift
/// let request = Request(method: .get, path: "/items/42", query: ["sort": "asc"])
/// let response = router.respond(to: request)
/// ```
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string.
    public var path: String
    /// Values captured by `:name` segments (and `*` for a trailing wildcard) of the matched route.
    public var pathParameters: [String: String]
    /// Percent-decoded query parameters (`+` decodes to a space); the first value of a repeated key wins.
    public var query: [String: String]
    /// The request header fields in the order received.
    public var headers: HTTPHeaders
    /// Cookies parsed from the `Cookie` header(s); the first value of a repeated name wins.
    public var cookies: [String: String]
    /// The request body (empty for streaming-body routes, whose bytes go to a ``RequestBodySink``).
    public var body: [UInt8]
    /// The client's numeric address, e.g. `"127.0.0.1"`; `nil` for in-process requests. Behind a
    /// trusted proxy (``HTTPServer/Configuration/trustedProxies``), the address the proxy names.
    public var remoteAddress: String?
    /// Whether the client reached the server over HTTPS, as a trusted proxy says (this server itself
    /// speaks plain HTTP): cookies set for it should be `Secure`.
    public var isHTTPS = false
    /// What a guard (``Router/guardRoutes(_:)``) learned about the request, such as who sent
    /// it, for the handler after it; nil until a guard sets it.
    public var context: (any Sendable)?

    /// The path exactly as sent on the wire (still percent-encoded), when known.
    /// Used to split path segments before decoding and to reject encoded traversal attempts.
    var rawPath: String?

    /// Creates a request, e.g. for in-process tests. Cookies are parsed from `headers`.
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The decoded path without a query string.
    ///   - query: Decoded query parameters.
    ///   - headers: Request header fields.
    ///   - body: The request body.
    public init(
        method: HTTPMethod,
        path: String,
        query: [String: String] = [:],
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.pathParameters = [:]
        self.query = query
        self.headers = headers
        self.cookies = Self.parseCookies(headers.values("Cookie"))
        self.body = body
        self.remoteAddress = nil
        self.context = nil
        self.rawPath = nil
    }
}
