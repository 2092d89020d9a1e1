import CMicroHTTPD
import Logging
import Synchronization

/// Everything the libmicrohttpd callbacks need, passed to them as an `Unmanaged` context pointer.
final class ServerCore: Sendable {
    let router: Router
    let configuration: HTTPServer.Configuration
    let logger: Logger
    let hostPolicy: HostPolicy
    let streams: StreamRegistry
    let connections: ConnectionTracker
    let bulk: BulkPool
    let staticFiles: PreparedStaticFiles
    /// The 404 of every unknown path, built once: scanners and broken links ask for it at the rate of static files.
    let notFound: PreparedResponse?
    private let requestCounter = Atomic<Int>(0)

    init(router: Router, configuration: HTTPServer.Configuration, logger: Logger) {
        self.router = router
        self.configuration = configuration
        self.logger = logger
        hostPolicy = HostPolicy(host: configuration.host, allowedHosts: configuration.allowedHosts)
        streams = StreamRegistry(
            limits: .init(
                total: max(0, configuration.maxEventStreams),
                perAddress: max(0, configuration.maxEventStreamsPerAddress),
                reserve: max(0, configuration.eventStreamReserve),
                maxAge: configuration.eventStreamMaxAge
            )
        )
        connections = ConnectionTracker(deadline: configuration.requestHeadDeadline)
        bulk = BulkPool(workers: configuration.bulkWorkers, queueLimit: configuration.bulkQueueLimit)
        staticFiles = PreparedStaticFiles(router: router, defaultHeaders: configuration.defaultHeaders)
        notFound = PreparedResponse(HTTPError.notFound.response, defaultHeaders: configuration.defaultHeaders)
    }

    /// Bytes of an over-limit body read and thrown away so the client can still read its 413: libmicrohttpd
    /// 0.9.75 cannot queue a response while a body is being received, only before or after it. Past this
    /// (16 × the limit, at least 8 MiB, at most 256 MiB) the connection is closed.
    static func discardAllowance(bodyLimit: Int) -> Int {
        let sixteenfold = bodyLimit.multipliedReportingOverflow(by: 16)
        return min(max(sixteenfold.overflow ? .max : sixteenfold.partialValue, 8 << 20), 256 << 20)
    }

    /// First handler call: headers are complete, no body byte has been read. Checks the head, resolves the
    /// route, and queues the response right away when the headers alone decide it (400, 421, 404, 405, 413,
    /// static files, refused uploads).
    func begin(
        _ connection: OpaquePointer,
        url rawURL: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?
    ) -> RequestState {
        let url = String(cString: rawURL)
        let tracked = cmhd_socket_context(connection).map { Unmanaged<ConnectionTracker.Entry>.fromOpaque($0).takeUnretainedValue() }
        if let tracked { connections.headArrived(tracked) }
        var request = Request(method: HTTPMethod(rawValue: String(cString: method)), path: PercentDecoding.decode(url))
        request.rawPath = url
        request.headers = Self.values(of: connection, kind: .HEADER_KIND)
        request.cookies = Request.parseCookies(request.headers.values("Cookie"))
        for (key, value) in Self.values(of: connection, kind: .GET_ARGUMENT_KIND) {
            let name = PercentDecoding.decode(key, plusAsSpace: true)
            if request.query[name] == nil { request.query[name] = PercentDecoding.decode(value, plusAsSpace: true) }
        }
        request.remoteAddress = Self.clientAddress(connection)
        if let peer = request.remoteAddress, configuration.trustedProxies.contains(peer) { request.applyForwarding() }
        let state = RequestState(id: requestCounter.add(1, ordering: .relaxed).newValue, request: request)
        state.connection = tracked

        var refusal = admissionError(connection, target: url, method: method, version: version, headers: request.headers)
        if refusal == nil, let tracked, targetHasNUL(tracked, url: rawURL, version: version) {
            refusal = .badRequest("The request target must not contain a NUL byte.")
        } else if refusal == nil, request.path.utf8.contains(0) {
            refusal = .badRequest("The path must not contain %00 (a NUL byte).")
        }
        if let refusal {
            var response = refusal.response
            response.headers["Connection"] = "close"  // what follows this head cannot be trusted either
            respond(response, to: state, on: connection)
            return state
        }
        // With a body to come, an answer goes out at once (the body is then drained or the connection closed);
        // without one it waits for the next call, so the connection stays alive.
        let hasBody = request.headers["Content-Length"].map { $0.trimmingSpaces() != "0" } ?? request.headers.contains("Transfer-Encoding")
        switch router.resolve(method: request.method, rawPath: url) {
        case .notFound where request.prefersHTML:
            answer(.response(HTTPError.notFound.response), hasBody: hasBody, state: state, on: connection)
        case .notFound:
            answer(notFound.map { .prepared($0) } ?? .response(HTTPError.notFound.response), hasBody: hasBody, state: state, on: connection)
        case .methodNotAllowed(let allow):
            answer(.response(Router.methodNotAllowed(request.method, allow: allow)), hasBody: hasBody, state: state, on: connection)
        case .files(let files, let relativePath, let mount):
            let early: RequestState.EarlyAnswer =
                if let prepared = staticFiles.response(mount: mount, relativePath: relativePath, request: request) {
                    .prepared(prepared)
                } else {
                    .response(files.response(for: request, relativePath: relativePath))
                }
            answer(early, hasBody: hasBody, state: state, on: connection)
        case .route(let route, let parameters):
            state.route = route
            state.request.pathParameters = parameters
            if let length = request.headers["Content-Length"].flatMap({ Int($0.trimmingSpaces()) }) {
                guard length <= route.bodyLimit else {
                    respond(HTTPError.payloadTooLarge(limit: route.bodyLimit).response, to: state, on: connection)
                    return state
                }
                if case .buffered = route.action { state.request.body.reserveCapacity(length) }
            }
            if case .streaming(let makeSink) = route.action {
                do {
                    state.sink = try makeSink(state.request)
                } catch {
                    respond(errorResponse(error, state: state), to: state, on: connection)
                }
            }
        }
        return state
    }

    /// Queues an answer decided from the head, or holds it in `state` until the next call when no body follows.
    private func answer(_ early: RequestState.EarlyAnswer, hasBody: Bool, state: RequestState, on connection: OpaquePointer) {
        guard hasBody else {
            state.early = early
            return
        }
        switch early {
        case .prepared(let prepared): queue(prepared, for: state, on: connection)
        case .response(let response): respond(response, to: state, on: connection)
        }
    }

    /// A call with body bytes: buffers them or hands them to the sink, enforcing the route's limit.
    /// - Returns: `false` when the connection should be closed (too many bytes drained after a refusal).
    func consume(_ chunk: UnsafeRawBufferPointer, state: RequestState) -> Bool {
        guard !state.responded, state.failure == nil, let route = state.route else {
            state.discarded += chunk.count
            return state.discarded <= Self.discardAllowance(bodyLimit: state.route?.bodyLimit ?? 0)
        }
        state.received += chunk.count
        if state.received > route.bodyLimit {
            state.failure = .payloadTooLarge(limit: route.bodyLimit)
            state.request.body = []
            state.sink?.abort()
            state.sink = nil
            state.discarded += chunk.count
            return true
        }
        if let sink = state.sink {
            do {
                try sink.write(chunk)
            } catch {
                state.failure = error as? HTTPError ?? .internalError
                if !(error is HTTPError) { log(unexpected: error, state: state) }
                sink.abort()
                state.sink = nil
            }
        } else {
            state.request.body.append(contentsOf: chunk)
        }
        return true
    }

    /// Last handler call: the body is complete. Runs the handler (or finishes the sink) and queues the answer.
    func complete(_ connection: OpaquePointer, state: RequestState) {
        if let job = state.bulkJob {
            finishBulk(job, state: state, on: connection)
            return
        }
        if let early = state.early, !state.responded {
            state.early = nil
            answer(early, hasBody: true, state: state, on: connection)
            return
        }
        guard !state.responded, let route = state.route else { return }
        if let failure = state.failure {
            respond(failure.response, to: state, on: connection)
            return
        }
        let response: Response
        switch route.action {
        case .buffered(let handler) where route.lane == .bulk:
            startBulk(handler, state: state, on: connection)
            return
        case .buffered(let handler):
            let request = state.request
            response = Router.run({ try handler(request) }, onUnexpectedError: { log(unexpected: $0, state: state) })
        case .streaming:
            guard let sink = state.sink else { return }
            state.sink = nil
            if route.lane == .bulk {
                finishOnBulk(sink, state: state, on: connection)
                return
            }
            do {
                response = try sink.finish()
            } catch {
                sink.abort()
                response = errorResponse(error, state: state)
            }
        }
        respond(response, to: state, on: connection)
    }

    /// The completed callback: aborts a sink whose body never finished (client left, timeout, shutdown).
    func completed(_ state: RequestState, connection: OpaquePointer?) {
        state.sink?.abort()
        state.sink = nil
        if state.bulkJob != nil {
            state.bulkJob = nil
            bulk.taken()
        }
        // The state holds the entry: the connection may already be closing (its socket context released).
        if let tracked = state.connection { connections.requestEnded(tracked) }
    }

    func errorResponse(_ error: any Error, state: RequestState) -> Response {
        if let error = error as? HTTPError { return error.response }
        log(unexpected: error, state: state)
        return HTTPError.internalError.response
    }

    func log(unexpected error: any Error, state: RequestState) {
        log(unexpected: error, id: state.id, path: state.request.path)
    }

    func log(unexpected error: any Error, id: Int, path: String) {
        logger.error(
            "Unhandled error: \(String(describing: error))",
            metadata: ["request.id": "\(id)", "http.path": "\(path)"]
        )
    }
}
