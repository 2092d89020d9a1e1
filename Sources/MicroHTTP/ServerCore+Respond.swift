import CMicroHTTPD
import Logging

extension ServerCore {
    /// Header names libmicrohttpd writes itself; handler values for them are dropped.
    private static let managedHeaders = ["Content-Length", "Transfer-Encoding"]

    static func isManaged(_ name: String) -> Bool {
        managedHeaders.contains { HTTPHeaders.sameName($0, name) }
    }

    /// Bodies at least this large are handed to libmicrohttpd without a copy (a page of many MB would
    /// otherwise be copied on libmicrohttpd's thread, delaying the other requests it serves).
    static let zeroCopyThreshold = 64 * 1024

    /// Queues a response prepared once (a static file or its 304) and writes the access-log line.
    func queue(_ prepared: PreparedResponse, for state: RequestState, on connection: OpaquePointer) {
        state.responded = true
        let queued = MHD_queue_response(connection, UInt32(prepared.status.code), prepared.raw)
        logAccess(state, status: prepared.status, queued: queued == .YES)
    }

    /// Queues `response` on the connection (adding the default headers) and writes the access-log line.
    func respond(_ response: Response, to state: RequestState, on connection: OpaquePointer) {
        if let problem = response.problem, state.request.prefersHTML {
            respond(problem.pageResponse(for: state.request, render: configuration.errorPage), to: state, on: connection)
            return
        }
        state.responded = true
        var headers = response.headers
        var stream: EventStream?
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes) where bytes.count >= Self.zeroCopyThreshold:
            mhdResponse = BodyStorage.response(for: bytes)
        case .bytes(let bytes):
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .eventStream where state.request.method == .head:
            headers["Content-Type"] = headers["Content-Type"] ?? "text/event-stream"
            mhdResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_MUST_COPY)
        case .eventStream:
            let eventStream = EventStream(connection: ConnectionHandle(raw: connection), socket: cmhd_connection_fd(connection), registry: streams)
            if var refusal = streams.register(eventStream, address: state.request.remoteAddress ?? "-", socket: cmhd_connection_fd(connection)) {
                refusal.headers["Retry-After"] = refusal.headers["Retry-After"] ?? "5"
                respond(refusal.response, to: state, on: connection)
                return
            }
            headers["Content-Type"] = headers["Content-Type"] ?? "text/event-stream"
            headers["Cache-Control"] = headers["Cache-Control"] ?? "no-store"
            headers["X-Accel-Buffering"] = headers["X-Accel-Buffering"] ?? "no"
            mhdResponse = MHD_create_response_from_callback(
                UInt64.max,  // MHD_SIZE_UNKNOWN, and unframed: the body runs until the connection closes
                // The response holds a block of this size for as long as the viewer stays: most events go
                // straight to the socket (`EventStream.send`), so 1 KB, not 4, is 11 MB less for 4,096 viewers.
                1024,
                Callbacks.readStream,
                Unmanaged.passRetained(eventStream).toOpaque(),
                Callbacks.releaseStream
            )
            if let mhdResponse { cmhd_response_unframed(mhdResponse) }
            stream = eventStream
        }
        guard let mhdResponse else {
            logger.error("Could not create a response", metadata: ["request.id": "\(state.id)"])
            stream?.finish()
            return
        }
        headers.addMissing(from: configuration.defaultHeaders)
        for (name, value) in headers where !Self.isManaged(name) {
            if MHD_add_response_header(mhdResponse, name, value) != .YES {
                logger.warning("Dropped an invalid response header", metadata: ["http.header": "\(name)"])
            }
        }
        let queued = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
        MHD_destroy_response(mhdResponse)  // the connection keeps its own reference
        logAccess(state, status: response.status, queued: queued == .YES)

        // A stream whose response was not queued was released by MHD_destroy_response (which unregistered it).
        if let stream, queued == .YES, case .eventStream(let start) = response.body {
            start(stream)
            // The request stays in libmicrohttpd's hands for as long as the viewer does; nothing reads
            // its headers, cookies or body again.
            state.request.forgetHeadAndBody()
        }
    }

    private func logAccess(_ state: RequestState, status: HTTPStatus, queued: Bool) {
        if let onResponse = configuration.onResponse {
            onResponse(AnsweredRequest(route: state.route.map { "\($0.method) \($0.pattern)" } ?? "unrouted", status: status.code,
                                       duration: ContinuousClock.now - state.start))
        }
        // Checked first: below the logger's level, a request costs no clock read, string or metadata.
        guard logger.logLevel <= (queued ? .info : .warning) else { return }
        let elapsed = ContinuousClock.now - state.start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let duration = (milliseconds * 1000).rounded() / 1000
        let request = state.request
        logger.log(
            level: queued ? .info : .warning,
            "\(request.method) \(request.path) \(status.code)\(queued ? "" : " (not sent)") \(duration)ms",
            metadata: [
                "request.id": "\(state.id)",
                "http.method": "\(request.method)",
                "http.path": "\(request.path)",
                "http.status": "\(status.code)",
                "http.duration_ms": "\(duration)",
                "http.remote": "\(request.remoteAddress ?? "-")",
            ]
        )
    }
}
