import CMicroHTTPD

extension ServerCore {
    /// Checks a request head before any route, static file or 404 runs: refuses heads that two HTTP
    /// parsers could read differently (request smuggling) and hosts that are not ours (DNS rebinding).
    ///
    /// libmicrohttpd 0.9.75 accepts bare-LF line ends at every strictness level, uses the first of several
    /// `Content-Length` fields, and treats a `Transfer-Encoding` other than `chunked` as a body of unknown
    /// length; each of those is refused here with 400. Its `MHD_OPTION_STRICT_FOR_CLIENT` (level 1) only
    /// adds two checks, a missing `Host` in HTTP/1.1 and spaces in the request target; they are made here
    /// instead, so that the client gets the same JSON error as for every other bad request, not
    /// libmicrohttpd's HTML page.
    /// - Returns: The error to answer with (the connection is then closed), or `nil` to go on.
    func admissionError(
        _ connection: OpaquePointer,
        target: String,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        headers: HTTPHeaders
    ) -> HTTPError? {
        if cmhd_bare_line_ends(connection, method, version) == 1 {
            return .badRequest("Lines of the request head must end with CRLF.")
        }
        if target.containsByte(UInt8(ascii: " ")) {
            return .badRequest("The request target must not contain spaces.")
        }
        if headers.contains(where: { $0.name.containsByte(UInt8(ascii: " ")) || $0.name.containsByte(UInt8(ascii: "\t")) }) {
            return .badRequest("Header names must not contain spaces.")
        }
        // Most heads have no body fields: looked for once before any array is made.
        let framed = headers.contains { HTTPHeaders.sameName($0.name, "Content-Length") || HTTPHeaders.sameName($0.name, "Transfer-Encoding") }
        let lengths = (framed ? headers.values("Content-Length") : []).flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingBlanks() }
        if lengths.contains(where: { $0.isEmpty || !$0.allSatisfy { $0.isASCII && $0.isNumber } }) {
            return .badRequest("Content-Length must be a number.")
        }
        if Set(lengths.map { $0.drop { $0 == "0" } }).count > 1 {
            return .badRequest("The request has conflicting Content-Length values.")
        }
        let encodings = framed ? headers.values("Transfer-Encoding") : []
        if !encodings.isEmpty {
            if !lengths.isEmpty {
                return .badRequest("A request cannot have both Content-Length and Transfer-Encoding.")
            }
            guard encodings.count == 1, encodings[0][...].trimmingBlanks().lowercased() == "chunked" else {
                return .badRequest("The only Transfer-Encoding accepted is chunked.")
            }
        }
        var host: String?
        for field in headers where HTTPHeaders.sameName(field.name, "Host") {
            guard host == nil else { return .badRequest("The request has more than one Host header.") }
            host = field.value
        }
        guard let host else {
            let isHTTP11 = version.map { String(cString: $0) } != "HTTP/1.0"
            return isHTTP11 ? .badRequest("HTTP/1.1 requests need a Host header.") : nil
        }
        return hostPolicy.allows(host) ? nil : .misdirected
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
