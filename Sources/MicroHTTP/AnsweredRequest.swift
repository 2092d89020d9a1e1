/// One answered request, as ``HTTPServer/Configuration/onResponse`` is told of it.
public struct AnsweredRequest: Sendable {
    /// The matched route as `METHOD /pattern/:parameter` (never the concrete path, so its values
    /// are few), or `unrouted` for static files, unknown paths and refusals before routing.
    public var route: String
    /// The status code sent.
    public var status: Int
    /// From the first byte of the head to the answer being queued.
    public var duration: Duration

    /// Describes an answered request (the server makes these; tests may too).
    public init(route: String, status: Int, duration: Duration) {
        self.route = route
        self.status = status
        self.duration = duration
    }
}
