/// An HTTP response status: a numeric code and its reason phrase.
///
/// Two statuses are equal when their codes are equal; the reason phrase is informational.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code, e.g. `404`.
    public let code: Int
    /// The reason phrase, e.g. `"Not Found"`.
    public let reasonPhrase: String

    /// Creates a status.
    /// - Parameters:
    ///   - code: The three-digit status code.
    ///   - reasonPhrase: The human-readable reason phrase.
    public init(code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    public var description: String { "\(code) \(reasonPhrase)" }

    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    public static let created = HTTPStatus(code: 201, reasonPhrase: "Created")
    public static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")
    public static let seeOther = HTTPStatus(code: 303, reasonPhrase: "See Other")
    public static let notModified = HTTPStatus(code: 304, reasonPhrase: "Not Modified")
    public static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    public static let forbidden = HTTPStatus(code: 403, reasonPhrase: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reasonPhrase: "Method Not Allowed")
    public static let conflict = HTTPStatus(code: 409, reasonPhrase: "Conflict")
    public static let gone = HTTPStatus(code: 410, reasonPhrase: "Gone")
    public static let preconditionFailed = HTTPStatus(code: 412, reasonPhrase: "Precondition Failed")
    public static let misdirectedRequest = HTTPStatus(code: 421, reasonPhrase: "Misdirected Request")
    public static let payloadTooLarge = HTTPStatus(code: 413, reasonPhrase: "Content Too Large")
    public static let unsupportedMediaType = HTTPStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    public static let unprocessableContent = HTTPStatus(code: 422, reasonPhrase: "Unprocessable Content")
    public static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    public static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")
}
