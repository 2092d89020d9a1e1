/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is not a numeric IPv4 or IPv6 address.
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// libmicrohttpd could not start, typically because the address is in use.
    case bindFailed(host: String, port: Int)
    /// ``HTTPServer/start()`` was called twice, or after ``HTTPServer/stop()``.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): "Invalid host '\(host)': expected a numeric IPv4 or IPv6 address."
        case .invalidPort(let port): "Invalid port \(port)."
        case .bindFailed(let host, let port): "Could not listen on \(host):\(port) (address in use or not available)."
        case .alreadyStarted: "The server was already started."
        }
    }
}
