import CMicroHTTPD
import Glibc
import Logging
import Synchronization

extension ServerCore {
    /// Whether libmicrohttpd parses request heads in place as 0.9.75 does, which the checks below rely on.
    static let parsesHeadsInPlace = MHD_get_version().map { String(cString: $0) } == "0.9.75"

    /// Whether the raw request target held a NUL byte. libmicrohttpd reads the target as a C string, so
    /// `/static/app.css<NUL>.html` would otherwise be served as `/static/app.css`. Its length was noted
    /// before the query was split off (``Callbacks/requestLine``); without a NUL it reaches the space
    /// libmicrohttpd replaced just before the HTTP version.
    func targetHasNUL(_ entry: ConnectionTracker.Entry, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>?) -> Bool {
        let length = entry.targetLength.load(ordering: .relaxed)
        guard Self.parsesHeadsInPlace, length >= 0, let version, version.pointee != 0 else { return false }
        return url + length + 1 != version
    }

    /// Answers, once, a head libmicrohttpd refused itself, told by the message it logs just before.
    ///
    /// libmicrohttpd 0.9.75 answers a `Content-Length` it cannot read (`abc`, `-1`) or hold (2^70) with a
    /// response whose header block it then writes a second time, so a client reads two status lines and a
    /// broken body. The message is logged on the thread parsing that head, before anything is written: this
    /// writes the answer (JSON, or a page for a browser) to the socket and shuts its sending side, so the
    /// library's own copy goes nowhere and the connection closes.
    func libraryRefusedHead(_ message: String) {
        let error: HTTPError
        if message.hasPrefix("Failed to parse `Content-Length'") {
            error = .badRequest("Content-Length must be a number.")
        } else if message.hasPrefix("Too large value of 'Content-Length'") {
            error = HTTPError(.payloadTooLarge, code: "payload_too_large", message: "Content-Length is larger than any body this server takes.")
        } else {
            return
        }
        // Only this thread's connection whose head is complete can be the one (others are still reading theirs).
        let heads = connections.headsParsed(on: UInt(pthread_self())).filter { entry in
            OpaquePointer(bitPattern: entry.connection).map { cmhd_head_complete($0) == 1 } ?? false
        }
        guard Self.parsesHeadsInPlace, heads.count == 1, let entry = heads.first, let connection = OpaquePointer(bitPattern: entry.connection) else { return }
        var request = Request(method: .get, path: "/")
        request.headers = Self.values(of: connection, kind: .HEADER_KIND)
        var response = request.prefersHTML ? error.pageResponse(for: request, render: configuration.errorPage) : error.response
        response.headers["Connection"] = "close"
        response.headers.addMissing(from: configuration.defaultHeaders)
        let bytes = Self.wireBytes(of: response)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(entry.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(entry.socket, Int32(SHUT_WR))
        logger.info("\(error.status.code) for a Content-Length libmicrohttpd refused", metadata: ["http.status": "\(error.status.code)"])
    }

    /// A complete HTTP/1.1 response as bytes, with `Content-Length`.
    static func wireBytes(of response: Response) -> [UInt8] {
        let body = response.bodyBytes
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for (name, value) in response.headers where !isManaged(name) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }
}
