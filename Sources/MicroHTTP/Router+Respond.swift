extension Router {
    /// Dispatches a request in process, exactly as the server would after reading the body.
    ///
    /// No route → 404 `not_found`; a route for another method → 405 `method_not_allowed` with `Allow`;
    /// a body over the route's limit → 413 `payload_too_large`; a thrown ``HTTPError`` → its response;
    /// any other error → 500 `internal_error` (the message does not reveal the error).
    public func respond(to request: Request) -> Response {
        let response: Response
        switch resolve(method: request.method, rawPath: request.rawPath ?? request.path) {
        case .notFound:
            response = HTTPError.notFound.response
        case .methodNotAllowed(let allow):
            response = Self.methodNotAllowed(request.method, allow: allow)
        case .files(let files, let relativePath, _):
            response = files.response(for: request, relativePath: relativePath)
        case .route(let route, let parameters):
            var request = request
            request.pathParameters = parameters
            if request.body.count > route.bodyLimit {
                response = HTTPError.payloadTooLarge(limit: route.bodyLimit).response
            } else {
                response = Self.run { () throws -> Response in
                    switch route.action {
                    case .buffered(let handler):
                        return try handler(request)
                    case .streaming(let makeSink):
                        let body = request.body
                        request.body = []
                        let sink = try makeSink(request)
                        do {
                            try body.withUnsafeBytes { try sink.write($0) }
                            return try sink.finish()
                        } catch {
                            sink.abort()
                            throw error
                        }
                    }
                }
            }
        }
        guard request.method == .head else { return response }
        var headResponse = response
        headResponse.body = .bytes([])
        return headResponse
    }

    /// Runs handler code, turning thrown errors into responses.
    /// - Parameter onUnexpectedError: Told about errors that are not ``HTTPError`` (e.g. to log them).
    static func run(_ work: () throws -> Response, onUnexpectedError: (any Error) -> Void = { _ in }) -> Response {
        do {
            return try work()
        } catch let error as HTTPError {
            return error.response
        } catch {
            onUnexpectedError(error)
            return HTTPError.internalError.response
        }
    }

    static func methodNotAllowed(_ method: HTTPMethod, allow: [HTTPMethod]) -> Response {
        var error = HTTPError.methodNotAllowed(method)
        error.headers["Allow"] = allow.map(\.rawValue).joined(separator: ", ")
        return error.response
    }
}
