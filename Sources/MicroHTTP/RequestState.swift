import CMicroHTTPD

/// A libmicrohttpd connection pointer that may cross threads (libmicrohttpd owns its synchronisation).
struct ConnectionHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

/// Per-request state kept in libmicrohttpd's `req_cls` from the first handler call to the completed callback.
/// Only touched by the connection's worker thread, one call at a time.
final class RequestState {
    let id: Int
    let start = ContinuousClock.now
    var request: Request
    /// The matched route, once headers are resolved to one.
    var route: Router.Route?
    /// The open body sink of a streaming route, until `finish` or `abort`.
    var sink: (any RequestBodySink)?
    /// Body bytes received so far.
    var received = 0
    /// Bytes read and thrown away after a failure (limit exceeded, sink error).
    var discarded = 0
    /// The error to answer with once the body is over.
    var failure: HTTPError?
    /// A response was queued; later calls only drain input.
    var responded = false
    /// The bulk-lane job running this request's handler while the connection is suspended.
    var bulkJob: BulkJob?
    /// An answer decided from the head alone, held until the (empty) body is over: libmicrohttpd 0.9.75
    /// closes a connection whose response was queued before that, so holding it keeps the connection alive.
    var early: EarlyAnswer?
    /// The connection's entry in the head-deadline tracker.
    var connection: ConnectionTracker.Entry?

    enum EarlyAnswer {
        case prepared(PreparedResponse)
        case response(Response)
    }

    init(id: Int, request: Request) {
        self.id = id
        self.request = request
    }
}

extension Request {
    /// Keeps what the access log and the completed callback name (method, path, address) and lets the
    /// rest go: an event stream's request lives as long as its viewer.
    mutating func forgetHeadAndBody() {
        headers = [:]
        cookies = [:]
        query = [:]
        pathParameters = [:]
        body = []
        context = nil
        rawPath = nil
    }
}
