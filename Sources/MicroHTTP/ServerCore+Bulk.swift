import CMicroHTTPD

extension ServerCore {
    /// Runs a bulk-lane handler on the bulk pool: suspends the connection so libmicrohttpd's thread is free
    /// for other requests, and lets the job resume it once the response is ready. A full pool answers 503
    /// with `Retry-After` at once. `cancel` runs when the handler never will (refused, or abandoned at stop).
    func startBulk(
        _ handler: @escaping Router.Handler,
        cancel: @escaping @Sendable () -> Void = {},
        state: RequestState,
        on connection: OpaquePointer
    ) {
        guard bulk.reserve() else {
            cancel()
            var response = HTTPError.bulkQueueFull.response
            response.headers["Retry-After"] = "1"
            respond(response, to: state, on: connection)
            return
        }
        let request = state.request
        let id = state.id
        let job = BulkJob(
            connection: ConnectionHandle(raw: connection),
            work: { [self] in
                Router.run({ try handler(request) }, onUnexpectedError: { log(unexpected: $0, id: id, path: request.path) })
            },
            cancel: cancel
        )
        state.bulkJob = job
        // Suspend before the job can run, so its resume always follows the suspension.
        MHD_suspend_connection(connection)
        bulk.enqueue(job)
    }

    /// Finishes a bulk-lane upload's sink on the bulk pool: closing and syncing a file must not hold one of
    /// libmicrohttpd's threads while drops wait on it.
    func finishOnBulk(_ sink: any RequestBodySink, state: RequestState, on connection: OpaquePointer) {
        startBulk(
            { _ in
                do {
                    return try sink.finish()
                } catch {
                    sink.abort()
                    throw error
                }
            },
            cancel: { sink.abort() },
            state: state,
            on: connection
        )
    }

    /// The access-handler call after a bulk job resumed the connection: queues the job's response.
    /// The job keeps its room in the pool until the request completes (`completed` gives it back):
    /// `stop` waits on that count, so an answer already queued is sent before the daemon stops.
    func finishBulk(_ job: BulkJob, state: RequestState, on connection: OpaquePointer) {
        guard !state.responded else { return }
        let response: Response
        switch job.result {
        case .pending:
            return  // not resumed by the job; nothing to answer yet
        case .answered(let answer):
            response = answer
        case .abandoned:
            response = HTTPError.stopping.response
        }
        respond(response, to: state, on: connection)
    }
}
