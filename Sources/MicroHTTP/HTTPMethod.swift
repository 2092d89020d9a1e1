/// An HTTP request method such as `GET` or `POST`.
///
/// Methods are case-sensitive tokens (RFC 9110 §9.1); the common ones are provided as statics.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its token.
    /// - Parameter rawValue: The method token, e.g. `"PROPFIND"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
