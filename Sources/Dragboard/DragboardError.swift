/// Everything the domain refuses, in words for people; `DragboardHTTP` maps each case to an
/// HTTP status at the edge.
public enum DragboardError: Error, Sendable, Equatable {
    case badRequest(String)
    case forbidden(String)
    case notFound(String)
    case conflict(String)
    case unprocessable(String)
    case tooLarge(String)
    case unsupportedType(String)
    /// A quota of stored data is used up (413: the request would store more than allowed).
    case quotaExceeded(String)
    /// Too many live things of one client or in total (429: retry when some have ended, in
    /// `retryAfter` seconds when known).
    case tooMany(String, retryAfter: Int? = nil)
    /// Something the server needs is out of reach for now (503: retry later).
    case unavailable(String)
}

extension DragboardError: CustomStringConvertible {
    /// The words for people, whatever the case.
    public var description: String {
        switch self {
        case .badRequest(let words), .forbidden(let words), .notFound(let words), .conflict(let words), .unprocessable(let words),
             .tooLarge(let words), .unsupportedType(let words), .quotaExceeded(let words), .tooMany(let words, _), .unavailable(let words):
            words
        }
    }
}
