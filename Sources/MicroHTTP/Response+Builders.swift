import Foundation

extension Response {
    /// A JSON response (`application/json; charset=utf-8`).
    ///
    /// If `value` cannot be encoded, the response is a 500 JSON error instead.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status, `200 OK` by default.
    public static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return HTTPError(.internalServerError, code: "internal_error", message: "The response could not be encoded.")
                .response
        }
        return Response(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: .bytes(Array(data))
        )
    }

    /// An HTML response (`text/html; charset=utf-8`).
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(Array(html.utf8)))
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A `303 See Other` redirect, the right answer to a form POST.
    /// - Parameter location: The URL to go to.
    public static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location])
    }
}
