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
    /// - Throws: ``HTTPError`` 415 when the body is not a form, 400 when it, or a field once its
    ///   `%HH` escapes are decoded, is not UTF-8 or holds a NUL (JSON bodies are refused alike).
    public func formFields() throws(HTTPError) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in try formPairs() where fields[name] == nil { fields[name] = value }
        return fields
    }

    /// Every value of the repeated field `name` (checkboxes of one name), in the form's order.
    /// - Throws: as ``formFields()``.
    public func formValues(named name: String) throws(HTTPError) -> [String] {
        try formPairs().filter { $0.name == name }.map(\.value)
    }

    private func formPairs() throws(HTTPError) -> [(name: String, value: String)] {
        guard isFormBody else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "expected an HTML form (application/x-www-form-urlencoded)")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, code: "malformed_form", message: "the form is not UTF-8")
        }
        var pairs: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decodeValidating(parts[0], plusAsSpace: true),
                  let value = PercentDecoding.decodeValidating(parts.count > 1 ? parts[1] : "", plusAsSpace: true) else {
                throw HTTPError(.badRequest, code: "malformed_form", message: "a form field is not valid UTF-8 (\(String(parts[0].prefix(64))))")
            }
            guard !name.utf8.contains(0), !value.utf8.contains(0) else {
                throw HTTPError(.badRequest, code: "malformed_form", message: "a form field holds a NUL byte (\(String(name.prefix(64)).replacingOccurrences(of: "\u{0}", with: "")))")
            }
            pairs.append((name, value))
        }
        return pairs
    }
}
