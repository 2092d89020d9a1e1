import Dragboard
import DragboardStore
import MicroHTTP

extension BoardService {
    /// `GET /healthz` and `GET /metrics`, outside the sign-in gate: a load balancer and a Prometheus
    /// server have no account.
    ///
    /// `/healthz` answers 200 when the database answers a read and 503 otherwise, saying nothing
    /// else. `/metrics` answers a loopback client only, unless `metricsToken` is set: then any client
    /// that sends `Authorization: Bearer <token>`, and no other.
    public func addOperationsRoutes(to router: inout Router, metricsToken: String? = nil) {
        router.get("/healthz") { [store] _ in
            let healthy = (try? store.version(board: BoardStore.defaultBoardID)) != nil
            var response = Response.json(Health(status: healthy ? "ok" : "unavailable"), status: healthy ? .ok : .serviceUnavailable)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        router.get("/metrics") { [self] request in
            if let metricsToken {
                guard let given = request.headers["Authorization"], Self.sameBytes(given, "Bearer " + metricsToken) else {
                    throw HTTPError(.unauthorized, code: "unauthorized", message: "metrics need Authorization: Bearer <the --metrics-token>")
                }
            } else if !DragboardApp.isLoopback(request.remoteAddress ?? "") {
                throw HTTPError(.forbidden, code: "forbidden", message: "metrics are served to this machine only (give the server --metrics-token to serve them elsewhere)")
            }
            let body = metrics.exposition(liveStreams: live.viewerCount, dragSessions: sessions.count)
            return Response(headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"], body: .bytes(body))
        }
    }

    /// Compares in time that does not depend on where the first difference is.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    struct Health: Encodable {
        var status: String
    }
}
