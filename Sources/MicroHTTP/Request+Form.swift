import Foundation

extension Request {
    /// Whether the body is an HTML form's (`application/x-www-form-urlencoded`).
    public var isFormBody: Bool {
        let type = headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/x-www-form-urlencoded"
    }

    /// Decodes an HTML form's body (`application/x-www-form-urlencoded`): a plain form posted
    /// without JavaScript sends nothing else. The first value of a repeated field wins.
    ///
    /// - Throws: ``HTTPError`` 415 when the body is not a form, 400 when it is not UTF-8.
    public func formFields() throws(HTTPError) -> [String: String] {
        guard isFormBody else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "expected an HTML form (application/x-www-form-urlencoded)")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, code: "malformed_form", message: "the form is not UTF-8")
        }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0], plusAsSpace: true)
            if fields[name] == nil { fields[name] = PercentDecoding.decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true) }
        }
        return fields
    }
}
