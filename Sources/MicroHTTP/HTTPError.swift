import Foundation

/// An error that maps to an HTTP response with a JSON body `{"error": {"code": …, "message": …}}`.
///
/// Throw it from a handler (or a ``RequestBodySink``) to answer with its status:
/// ```swift
/// throw HTTPError(.notFound, code: "list_not_found", message: "No list with id \(id).")
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// A stable, machine-readable code, e.g. `"payload_too_large"`.
    public var code: String
    /// A human-readable message; it is sent to the client, so never put internals in it.
    public var message: String
    /// Header fields the response carries besides its JSON type: `Retry-After` for a 429, or a
    /// `Location` that sends a browser elsewhere.
    public var headers: HTTPHeaders = [:]
    /// An HTML page to answer with instead of the JSON body, for a browser that navigated here.
    public var page: String?

    /// Creates an error.
    /// - Parameters:
    ///   - status: The response status.
    ///   - code: A stable, machine-readable code.
    ///   - message: A human-readable message safe to show to the client.
    public init(_ status: HTTPStatus, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "HTTPError(\(status.code) \(code): \(message))" }

    /// The JSON error response with this error's status.
    public var response: Response {
        var response: Response
        if let page {
            response = .html(page, status: status)
        } else {
            response = Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(jsonBody))
            response.problem = self
        }
        for (name, value) in headers { response.headers[name] = value }
        return response
    }
}

extension HTTPError {
    static let notFound = HTTPError(.notFound, code: "not_found", message: "No resource matches this path.")
    static let internalError = HTTPError(
        .internalServerError,
        code: "internal_error",
        message: "The server failed to handle the request."
    )

    static func badRequest(_ message: String) -> HTTPError {
        HTTPError(.badRequest, code: "bad_request", message: message)
    }

    static let misdirected = HTTPError(
        .misdirectedRequest,
        code: "misdirected_request",
        message: "This server does not answer to that host name."
    )

    static let bulkQueueFull = HTTPError(
        .serviceUnavailable,
        code: "server_busy",
        message: "The server is busy with other large requests; try again in a moment."
    )

    static let stopping = HTTPError(.serviceUnavailable, code: "server_stopping", message: "The server is shutting down.")

    static func tooManyStreams(limit: Int) -> HTTPError {
        HTTPError(
            .serviceUnavailable,
            code: "too_many_streams",
            message: "The server already has its maximum of \(limit) live-update streams open; try again later."
        )
    }

    static func tooManyStreamsFromAddress(limit: Int, retryAfter seconds: Int) -> HTTPError {
        tooMany(code: "too_many_streams_from_address", retryAfter: seconds,
                "Your address already has its maximum of \(limit) live-update streams open; close a tab, or the oldest ends within \(spoken(seconds)).")
    }

    static func streamsReserved(lightUse: Int, retryAfter seconds: Int) -> HTTPError {
        tooMany(code: "streams_reserved", retryAfter: seconds,
                "The server is nearly at its limit of live-update streams, so for now an address keeps at most \(lightUse); close a tab, or one ends within \(spoken(seconds)).")
    }

    /// A 429 that says when to try again, in its words and in `Retry-After`.
    private static func tooMany(code: String, retryAfter seconds: Int, _ message: String) -> HTTPError {
        var error = HTTPError(.tooManyRequests, code: code, message: message)
        error.headers["Retry-After"] = String(seconds)
        return error
    }

    /// "40 seconds", or "3 minutes" past a minute and a half.
    private static func spoken(_ seconds: Int) -> String {
        seconds > 90 ? "\((seconds + 59) / 60) minutes" : "\(seconds) seconds"
    }

    static func methodNotAllowed(_ method: HTTPMethod) -> HTTPError {
        HTTPError(.methodNotAllowed, code: "method_not_allowed", message: "\(method) is not allowed on this path.")
    }

    static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(.payloadTooLarge, code: "payload_too_large", message: "The request body is larger than \(readableSize(limit)).")
    }

    /// Whole megabytes or kilobytes when the limit is one, so people read "20 MB", not 20971520.
    private static func readableSize(_ bytes: Int) -> String {
        let (megabyte, kilobyte) = (1024 * 1024, 1024)
        if bytes >= megabyte, bytes % megabyte == 0 { return "\(bytes / megabyte) MB" }
        if bytes >= kilobyte, bytes % kilobyte == 0 { return "\(bytes / kilobyte) KB" }
        return "\(bytes) bytes"
    }
}
