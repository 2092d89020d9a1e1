import Foundation
import Glibc

/// Errors of the raw test client.
public enum TestClientError: Error, Equatable, CustomStringConvertible {
    case system(String, Int32)
    case timedOut
    case closedEarly
    case malformed(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .timedOut: "timed out"
        case .closedEarly: "connection closed before the response was complete"
        case .malformed(let detail): "malformed response: \(detail)"
        }
    }
}

/// A parsed HTTP/1.1 response.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// `error.code` of a JSON error body.
    public var errorCode: String? {
        (json?["error"] as? [String: Any])?["code"] as? String
    }
}

/// A blocking TCP connection to a server under test, built on Glibc sockets: the raw HTTP/1.1
/// client of the tests (what a browser or an attacker would send, byte for byte).
public final class TestConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// Whether the body after ``readHead()`` comes in chunks (else it runs until the connection closes).
    private var streamIsChunked = true
    private var isClosed = false

    /// Connects to `127.0.0.1:port`, optionally from a chosen source address (e.g. `127.0.0.2`).
    public init(port: Int, host: String = "127.0.0.1", sourceAddress: String? = nil, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.system("socket", errno) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = Self.address(sourceAddress, port: 0)
            let result = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else { let code = errno; close(); throw TestClientError.system("bind", code) }
        }
        var remote = Self.address(host, port: port)
        let result = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // `close()`, never `Glibc.close(fd)`: a throwing class initializer still runs `deinit`, which
        // would close the number again, by then perhaps another server's descriptor in this process.
        guard result == 0 else { let code = errno; close(); throw TestClientError.system("connect", code) }
    }

    deinit { close() }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    /// Sends all bytes (no SIGPIPE).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestClientError.system("send", errno) }
            offset += sent
        }
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads what is available into the buffer; returns `false` at end of stream.
    @discardableResult
    public func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 { return false }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { throw TestClientError.timedOut }
        if code == ECONNRESET { return false }
        throw TestClientError.system("recv", code)
    }

    /// Reads until the peer closes; returns everything not yet consumed.
    public func readUntilClosed() throws -> [UInt8] {
        while try receive() {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads one response: `Content-Length`, chunked, or until close. `head` skips the body (HEAD requests).
    public func readResponse(head: Bool = false) throws -> TestResponse {
        let headEnd = try waitForHeaderEnd()
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestClientError.malformed(headText) }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        if head || status == 304 || status == 204 || status / 100 == 1 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                if let (body, consumed) = Self.decodeChunked(buffer), consumed > 0, Self.isComplete(buffer) {
                    response.body = body
                    buffer.removeFirst(consumed)
                    return response
                }
                guard try receive() else { throw TestClientError.closedEarly }
            }
        }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            while buffer.count < length {
                guard try receive() else { throw TestClientError.closedEarly }
            }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
            return response
        }
        response.body = try readUntilClosed()
        return response
    }

    /// Reads the response head of a streaming response, leaving the body bytes for ``readChunkedBody(until:)``.
    public func readHead() throws -> TestResponse {
        let headEnd = try waitForHeaderEnd()
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = TestResponse(status: Int(statusLine[1]) ?? 0, headers: headers, body: [])
        streamIsChunked = response.header("Transfer-Encoding")?.lowercased() == "chunked"
        return response
    }

    /// Reads a streaming body (chunked, or running until the connection closes, as the head said) until
    /// `condition` holds for the decoded text so far (or the stream ends).
    /// - Returns: The decoded text and whether the stream ended (the terminating chunk, or the close).
    public func readChunkedBody(until condition: (String) -> Bool) throws -> (text: String, ended: Bool) {
        while true {
            let decoded = streamIsChunked ? Self.decodeChunked(buffer)?.body ?? [] : buffer
            let text = String(decoding: decoded, as: UTF8.self)
            if streamIsChunked, Self.isComplete(buffer) { return (text, true) }
            if condition(text) { return (text, false) }
            guard try receive() else { return (String(decoding: streamIsChunked ? Self.decodeChunked(buffer)?.body ?? [] : buffer, as: UTF8.self), !streamIsChunked) }
        }
    }

    private func waitForHeaderEnd() throws -> Int {
        while true {
            if let index = Self.find([13, 10, 13, 10], in: buffer) { return index }
            guard try receive() else { throw TestClientError.closedEarly }
        }
    }

    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count + start else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }

    /// Decodes complete chunks at the start of `raw`; returns the body so far and the bytes consumed
    /// (including the terminating `0\r\n\r\n` when present).
    public static func decodeChunked(_ raw: [UInt8]) -> (body: [UInt8], consumed: Int)? {
        var body: [UInt8] = []
        var offset = 0
        while let lineEnd = find([13, 10], in: raw, from: offset) {
            let sizeText = String(decoding: raw[offset..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            if size == 0 {
                guard let end = find([13, 10, 13, 10], in: raw, from: lineEnd) , end == lineEnd else { return (body, offset) }
                return (body, lineEnd + 4)
            }
            guard raw.count >= lineEnd + 2 + size + 2 else { break }
            body.append(contentsOf: raw[(lineEnd + 2)..<(lineEnd + 2 + size)])
            offset = lineEnd + 2 + size + 2
        }
        return (body, offset)
    }

    /// Whether `raw` holds a complete chunked body (ends with the zero-size chunk).
    public static func isComplete(_ raw: [UInt8]) -> Bool {
        var offset = 0
        while let lineEnd = find([13, 10], in: raw, from: offset) {
            let sizeText = String(decoding: raw[offset..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            if size == 0 { return find([13, 10, 13, 10], in: raw, from: lineEnd) == lineEnd }
            offset = lineEnd + 2 + size + 2
            if offset > raw.count { return false }
        }
        return false
    }
}
