import MicroHTTP

extension DragboardApp {
    /// How many connections and live-update streams the server holds, in total and per client address
    /// (the libmicrohttpd side of the limits; drags and images are in ``BoardService/Limits``).
    public struct ConnectionLimits: Sendable {
        /// Connections at once, in total (lowered at start to what the open-file limit allows).
        public var connections: Int
        /// Connections at once from one address.
        public var connectionsPerAddress: Int
        /// Live-update streams at once, in total.
        public var eventStreams: Int
        /// Live-update streams at once from one address (a tab each; people behind one NAT share it).
        public var eventStreamsPerAddress: Int
        /// The last stream slots, kept for addresses holding fewer than 4.
        public var eventStreamReserve: Int

        /// The server's defaults (see ``MicroHTTP/HTTPServer/Configuration``).
        public init() {
            let defaults = HTTPServer.Configuration()
            connections = defaults.connectionLimit
            connectionsPerAddress = defaults.perIPConnectionLimit
            eventStreams = defaults.maxEventStreams
            eventStreamsPerAddress = defaults.maxEventStreamsPerAddress
            eventStreamReserve = defaults.eventStreamReserve
        }

        func apply(to configuration: inout HTTPServer.Configuration) {
            configuration.connectionLimit = connections
            configuration.perIPConnectionLimit = connectionsPerAddress
            configuration.maxEventStreams = eventStreams
            configuration.maxEventStreamsPerAddress = eventStreamsPerAddress
            configuration.eventStreamReserve = eventStreamReserve
        }
    }
}
