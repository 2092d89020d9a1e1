extension HTTPServer {
    /// Listening address, libmicrohttpd limits and default headers.
    public struct Configuration: Sendable {
        /// The numeric IPv4 or IPv6 address to bind, `127.0.0.1` by default.
        public var host: String
        /// The TCP port; 0 picks any free port (read it back from ``HTTPServer/port``).
        public var port: Int
        /// libmicrohttpd worker threads (each runs its own epoll loop).
        public var threadPoolSize: Int
        /// Concurrent connections accepted in total (event streams count).
        public var connectionLimit: Int
        /// Concurrent connections accepted from one IP address; 0 means unlimited.
        public var perIPConnectionLimit: Int
        /// Memory per connection for the request line, headers and read buffer; larger headers get 431.
        public var connectionMemoryLimit: Int
        /// Seconds of inactivity after which a connection is closed; 0 means never.
        ///
        /// It also bounds how long a client that left mid-body can go unnoticed: libmicrohttpd
        /// 0.9.75's epoll mode sometimes misses a close that arrives with the last bytes still
        /// being read (measured: about 1 in 8 uploads cut off at 2 MB), and that connection's
        /// ``RequestBodySink/abort()`` then runs only at this timeout.
        public var connectionTimeout: Int
        /// How often every event stream gets a `: ping` comment.
        public var heartbeatInterval: Duration
        /// Headers added to every response whose handler did not set the same name.
        public var defaultHeaders: HTTPHeaders

        /// The default security headers: a strict Content-Security-Policy, `nosniff`, `DENY` framing and a
        /// same-origin referrer policy.
        public static let securityHeaders: HTTPHeaders = [
            "Content-Security-Policy":
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin",
        ]

        /// Creates a configuration; every parameter has a production-minded default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threadPoolSize: Int = 4,
            connectionLimit: Int = 512,
            perIPConnectionLimit: Int = 64,
            connectionMemoryLimit: Int = 64 * 1024,
            connectionTimeout: Int = 30,
            heartbeatInterval: Duration = .seconds(15),
            defaultHeaders: HTTPHeaders = Configuration.securityHeaders
        ) {
            self.host = host
            self.port = port
            self.threadPoolSize = threadPoolSize
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
            self.connectionMemoryLimit = connectionMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.heartbeatInterval = heartbeatInterval
            self.defaultHeaders = defaultHeaders
        }
    }
}
