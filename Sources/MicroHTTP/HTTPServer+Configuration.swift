extension HTTPServer {
    /// Listening address, libmicrohttpd limits, abuse limits and default headers.
    ///
    /// The defaults are sized for one machine serving browsers directly (no proxy in front): libmicrohttpd
    /// holds 16,384 connections (raised open-file limit permitting), so 250 client addresses each at the
    /// per-IP limit (250 × 64) are needed to fill it; 4,096 of them may be live-update streams, the last
    /// 512 kept for addresses with few; and a connection that has not sent its whole request head within
    /// ``requestHeadDeadline`` is closed, however slowly it trickles bytes.
    public struct Configuration: Sendable {
        /// The numeric IPv4 or IPv6 address to bind, `127.0.0.1` by default.
        public var host: String
        /// The TCP port; 0 picks any free port (read it back from ``HTTPServer/port``).
        public var port: Int
        /// Extra host names (without port) accepted in the `Host` header, besides the configured ``host``
        /// and the loopback names `localhost`, `127.0.0.1` and `[::1]`. Any other `Host` gets 421, so a
        /// DNS-rebinding page (a foreign name resolved to this address) cannot read our pages. When
        /// ``host`` is `0.0.0.0` or `::` the machine's own names cannot be guessed: list them here.
        public var allowedHosts: [String]
        /// Numeric addresses of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are
        /// believed (see ``Request/remoteAddress`` and ``Request/isHTTPS``); from any other peer those
        /// headers are ignored. With one, libmicrohttpd's per-IP connection limit is off (every
        /// connection comes from the proxy); the per-address shares apply to the forwarded address.
        public var trustedProxies: [String] = []
        /// Told of every answer sent (its route, status and time), e.g. to count requests for metrics.
        /// Runs on the thread that answered: keep it short.
        public var onResponse: (@Sendable (AnsweredRequest) -> Void)?
        /// libmicrohttpd worker threads (each runs its own event loop).
        public var threadPoolSize: Int
        /// Which readiness API libmicrohttpd's threads use; see ``EventLoop``.
        public var eventLoop: EventLoop
        /// Concurrent connections accepted in total (event streams count). Lowered at start to what the
        /// process's open-file limit allows.
        public var connectionLimit: Int
        /// Concurrent connections accepted from one IP address; 0 means unlimited.
        public var perIPConnectionLimit: Int
        /// Memory per connection for the request line, headers and read buffer; a larger head gets 431.
        /// Over 32 KB libmicrohttpd maps it page by page, and the patched build it is linked with gives
        /// back the pages a suspended connection does not use: an idle viewer costs about 12 KB in all
        /// (24 KB at 32 KB, where the pool is one `malloc` whose touched pages a stream keeps).
        public var connectionMemoryLimit: Int
        /// Seconds of inactivity after which a connection is closed; 0 means never.
        ///
        /// It also bounds how long a client that left mid-body can go unnoticed when ``eventLoop`` is
        /// `.epoll`: libmicrohttpd 0.9.75 then misses most closes that arrive while a body is still being
        /// read, and that connection's ``RequestBodySink/abort()`` runs only at this timeout.
        public var connectionTimeout: Int
        /// The longest a connection may take to deliver a complete request head (request line and
        /// headers), counted from its opening, or from the end of its previous request when kept alive.
        /// Unlike ``connectionTimeout`` it is absolute: a client trickling a byte every few seconds is
        /// still cut off. `nil` disables it.
        public var requestHeadDeadline: Duration?
        /// How often every event stream gets a `: ping` comment.
        public var heartbeatInterval: Duration
        /// Event streams open at once, in total; more get 503. Kept well under ``connectionLimit`` so idle
        /// live-update streams can never take every connection.
        public var maxEventStreams: Int
        /// Event streams open at once from one client address; more get 429. A person with many tabs
        /// needs one each, and several people may share an address (NAT, a proxy).
        public var maxEventStreamsPerAddress: Int
        /// The last event-stream slots, kept for addresses holding fewer than 4 streams: however many
        /// addresses fill their shares, a newcomer still gets its stream.
        public var eventStreamReserve: Int
        /// The age at which the server ends an event stream; browsers' `EventSource` reconnects by itself,
        /// so a forgotten tab cannot hold a connection forever. `nil` keeps streams until they close.
        public var eventStreamMaxAge: Duration?
        /// Threads running ``Router/Lane/bulk`` handlers (slow reads such as big page renders), away from
        /// libmicrohttpd's threads so they cannot delay interactive requests.
        public var bulkWorkers: Int
        /// Bulk requests waiting for a worker; more get 503 with `Retry-After`.
        public var bulkQueueLimit: Int
        /// Headers added to every response whose handler did not set the same name.
        public var defaultHeaders: HTTPHeaders
        /// The page a browser (``Request/prefersHTML``) gets for an error answered as JSON to other clients:
        /// the server's own (404, 405, 400 framing, 413, 429, 503) and those thrown by handlers.
        public var errorPage: HTTPError.PageRenderer

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
            allowedHosts: [String] = [],
            threadPoolSize: Int = 4,
            eventLoop: EventLoop = .poll,
            connectionLimit: Int = 16384,
            perIPConnectionLimit: Int = 64,
            connectionMemoryLimit: Int = 36 * 1024,
            connectionTimeout: Int = 30,
            requestHeadDeadline: Duration? = .seconds(10),
            heartbeatInterval: Duration = .seconds(15),
            maxEventStreams: Int = 4096,
            maxEventStreamsPerAddress: Int = 32,
            eventStreamReserve: Int = 512,
            eventStreamMaxAge: Duration? = .seconds(600),
            bulkWorkers: Int = 1,
            bulkQueueLimit: Int = 32,
            defaultHeaders: HTTPHeaders = Configuration.securityHeaders,
            errorPage: @escaping HTTPError.PageRenderer = HTTPError.plainPage
        ) {
            self.host = host
            self.port = port
            self.allowedHosts = allowedHosts
            self.threadPoolSize = threadPoolSize
            self.eventLoop = eventLoop
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
            self.connectionMemoryLimit = connectionMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.requestHeadDeadline = requestHeadDeadline
            self.heartbeatInterval = heartbeatInterval
            self.maxEventStreams = maxEventStreams
            self.maxEventStreamsPerAddress = maxEventStreamsPerAddress
            self.eventStreamReserve = eventStreamReserve
            self.eventStreamMaxAge = eventStreamMaxAge
            self.bulkWorkers = bulkWorkers
            self.bulkQueueLimit = bulkQueueLimit
            self.defaultHeaders = defaultHeaders
            self.errorPage = errorPage
        }
    }

    /// The readiness API of libmicrohttpd's worker threads.
    ///
    /// Measured on this project's machine (80 uploads cut off after 2 MiB of 4 MiB, three runs): under epoll libmicrohttpd 0.9.75 had not noticed 72–78 of the 80 closes 3 s later
    /// (they wait in CLOSE-WAIT for ``Configuration/connectionTimeout``); under poll it noticed all 80.
    public enum EventLoop: Sendable {
        /// `poll(2)`, the default: notices client closes promptly. Each worker scans its share of the
        /// connections per wake-up, which stays cheap at the connection limits used here.
        case poll
        /// `epoll(7)`: cheaper per wake-up with many thousands of connections, but libmicrohttpd 0.9.75 misses
        /// most closes that arrive while a body is still being read.
        case epoll
    }
}
