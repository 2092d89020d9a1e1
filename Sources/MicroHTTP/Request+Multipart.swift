extension Request {
    /// One part of a `multipart/form-data` body: a field, or a file with its name.
    public struct FormPart: Sendable {
        public var name: String
        public var filename: String?
        public var body: [UInt8]
    }

    /// Decodes a `multipart/form-data` body (what a form with a file input sends), part by part.
    /// - Throws: ``HTTPError`` 415 when the body is not one, 400 when it is malformed.
    public func multipartParts() throws(HTTPError) -> [FormPart] {
        let type = headers["Content-Type"] ?? ""
        guard type.lowercased().hasPrefix("multipart/form-data"),
              let boundaryField = type.split(separator: ";").map({ $0.trimmingSpaces() }).first(where: { $0.lowercased().hasPrefix("boundary=") }) else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "expected a form with a file (multipart/form-data)")
        }
        var boundary = String(boundaryField.dropFirst("boundary=".count))
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        guard (1...70).contains(boundary.utf8.count) else { throw HTTPError.badRequest("the form's boundary is malformed") }
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [FormPart] = []
        guard var start = Self.find(delimiter, in: body, from: 0) else { throw HTTPError.badRequest("the form has no parts") }
        while true {
            start += delimiter.count
            if body[start...].starts(with: Array("--".utf8)) { return parts }   // the closing delimiter
            guard body[start...].starts(with: [13, 10]) else { throw HTTPError.badRequest("the form is malformed") }
            start += 2
            guard let headEnd = Self.find([13, 10, 13, 10], in: body, from: start),
                  let next = Self.find([13, 10] + delimiter, in: body, from: headEnd + 4) else {
                throw HTTPError.badRequest("a part of the form is cut short")
            }
            let head = String(decoding: body[start..<headEnd], as: UTF8.self)
            guard let disposition = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                  let name = Self.parameter("name", in: disposition) else {
                throw HTTPError.badRequest("a part of the form has no name")
            }
            parts.append(FormPart(name: name, filename: Self.parameter("filename", in: disposition), body: Array(body[(headEnd + 4)..<next])))
            guard parts.count <= 64 else { throw HTTPError.badRequest("the form has too many parts") }
            start = next + 2
        }
    }

    private static func parameter(_ key: String, in disposition: Substring) -> String? {
        for field in disposition.split(separator: ";").dropFirst() {
            let pair = field.trimmingSpaces()
            guard pair.lowercased().hasPrefix(key + "=") else { continue }
            var value = String(pair.dropFirst(key.count + 1))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let first = needle[0]
        while index <= haystack.count - needle.count {
            guard let found = haystack[index...(haystack.count - needle.count)].firstIndex(of: first) else { return nil }
            if haystack[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }
}
