import CMicroHTTPD
import Logging
import Synchronization

/// Everything the libmicrohttpd callbacks need, passed to them as an `Unmanaged` context pointer.
final class ServerCore: Sendable {
    let router: Router
    let configuration: HTTPServer.Configuration
    let logger: Logger
    let streams = StreamRegistry()
    private let requestCounter = Atomic<Int>(0)

    /// Bytes of an already-refused body drained before the connection is simply closed.
    static let maxDiscardedBytes = 1 << 20

    init(router: Router, configuration: HTTPServer.Configuration, logger: Logger) {
        self.router = router
        self.configuration = configuration
        self.logger = logger
    }

    /// First handler call: headers are complete, no body byte has been read. Resolves the route, and queues
    /// the response right away when the headers alone decide it (404, 405, 413, static files, refused uploads).
    func begin(_ connection: OpaquePointer, url: String, method: String) -> RequestState {
        var request = Request(method: HTTPMethod(rawValue: method), path: PercentDecoding.decode(url))
        request.rawPath = url
        request.headers = Self.values(of: connection, kind: .HEADER_KIND)
        request.cookies = Request.parseCookies(request.headers.values("Cookie"))
        for (key, value) in Self.values(of: connection, kind: .GET_ARGUMENT_KIND) {
            let name = PercentDecoding.decode(key, plusAsSpace: true)
            if request.query[name] == nil { request.query[name] = PercentDecoding.decode(value, plusAsSpace: true) }
        }
        request.remoteAddress = Self.clientAddress(connection)
        let state = RequestState(id: requestCounter.add(1, ordering: .relaxed).newValue, request: request)

        switch router.resolve(method: request.method, rawPath: url) {
        case .notFound:
            respond(HTTPError.notFound.response, to: state, on: connection)
        case .methodNotAllowed(let allow):
            respond(Router.methodNotAllowed(request.method, allow: allow), to: state, on: connection)
        case .files(let files, let relativePath):
            respond(files.response(for: request, relativePath: relativePath), to: state, on: connection)
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

    /// A call with body bytes: buffers them or hands them to the sink, enforcing the route's limit.
    /// - Returns: `false` when the connection should be closed (too many bytes drained after a refusal).
    func consume(_ chunk: UnsafeRawBufferPointer, state: RequestState) -> Bool {
        guard !state.responded, state.failure == nil, let route = state.route else {
            state.discarded += chunk.count
            return state.discarded <= Self.maxDiscardedBytes
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
        guard !state.responded, let route = state.route else { return }
        if let failure = state.failure {
            respond(failure.response, to: state, on: connection)
            return
        }
        let response: Response
        switch route.action {
        case .buffered(let handler):
            let request = state.request
            response = Router.run({ try handler(request) }, onUnexpectedError: { log(unexpected: $0, state: state) })
        case .streaming:
            guard let sink = state.sink else { return }
            state.sink = nil
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
    func completed(_ state: RequestState) {
        state.sink?.abort()
        state.sink = nil
    }

    func errorResponse(_ error: any Error, state: RequestState) -> Response {
        if let error = error as? HTTPError { return error.response }
        log(unexpected: error, state: state)
        return HTTPError.internalError.response
    }

    func log(unexpected error: any Error, state: RequestState) {
        logger.error(
            "Unhandled error: \(String(describing: error))",
            metadata: ["request.id": "\(state.id)", "http.path": "\(state.request.path)"]
        )
    }
}
