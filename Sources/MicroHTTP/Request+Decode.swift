import Foundation

extension Request {
    /// Decodes the JSON body.
    ///
    /// - Throws: ``HTTPError`` with status 415 (`unsupported_media_type`) when a `Content-Type` is present and is
    ///   not JSON, 400 `malformed_json` when the body is not JSON, and 400 `invalid_body` when the JSON does not
    ///   have the expected shape (the message names the offending field).
    public func decode<T: Decodable>(_ type: T.Type) throws(HTTPError) -> T {
        if let contentType = headers["Content-Type"], !Self.isJSON(contentType) {
            throw HTTPError(
                .unsupportedMediaType,
                code: "unsupported_media_type",
                message: "Expected Content-Type application/json, got \(contentType)."
            )
        }
        guard !body.isEmpty else {
            throw HTTPError(.badRequest, code: "malformed_json", message: "The request body is empty; expected JSON.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            throw Self.httpError(for: error)
        } catch {
            throw HTTPError(.badRequest, code: "malformed_json", message: "The request body is not valid JSON.")
        }
    }

    /// Whether a media type is `application/json` or a `+json` suffix type, ignoring parameters.
    static func isJSON(_ contentType: String) -> Bool {
        var bytes = Substring(contentType).utf8
        if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
        let mediaType = String(Substring(bytes.trimmingSpaceBytes())).lowercased()
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    private static func httpError(for error: DecodingError) -> HTTPError {
        func field(_ path: [any CodingKey]) -> String {
            let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the body" : "'" + names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "'"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return HTTPError(.badRequest, code: "malformed_json", message: "The request body is not valid JSON.")
        case .dataCorrupted(let context):
            // The reason a decoder gave (the app's grammar checks name the rule broken).
            let reason = context.debugDescription.isEmpty ? "" : ": " + context.debugDescription
            return HTTPError(.badRequest, code: "invalid_body", message: "Invalid value for \(field(context.codingPath))\(reason).")
        case .keyNotFound(let key, let context):
            return HTTPError(
                .badRequest,
                code: "invalid_body",
                message: "Missing field \(field(context.codingPath + [key]))."
            )
        case .typeMismatch(let type, let context):
            return HTTPError(
                .badRequest,
                code: "invalid_body",
                message: "Wrong type for \(field(context.codingPath)): expected \(Self.describe(type))."
            )
        case .valueNotFound(let type, let context):
            return HTTPError(
                .badRequest,
                code: "invalid_body",
                message: "Missing value for \(field(context.codingPath)): expected \(Self.describe(type))."
            )
        @unknown default:
            return HTTPError(.badRequest, code: "invalid_body", message: "The request body has the wrong shape.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is Double.Type, is Float.Type: "a number"
        // A dictionary is a collection too, but JSON calls it an object.
        default: String(describing: type).hasPrefix("Dictionary<") || !(type is any Collection.Type) ? "an object" : "an array"
        }
    }
}
