import DragAndDrop
import Dragboard
import DragboardStore
import MicroHTTP

extension DragboardError {
    /// The JSON error response.
    public var httpError: HTTPError {
        switch self {
        case .badRequest(let message): HTTPError(.badRequest, code: "bad_request", message: message)
        case .forbidden(let message): HTTPError(.forbidden, code: "forbidden", message: message)
        case .notFound(let message): HTTPError(.notFound, code: "not_found", message: message)
        case .conflict(let message): HTTPError(.conflict, code: "conflict", message: message)
        case .unprocessable(let message): HTTPError(.unprocessableContent, code: "unprocessable", message: message)
        case .tooLarge(let message): HTTPError(.payloadTooLarge, code: "payload_too_large", message: message)
        case .unsupportedType(let message): HTTPError(.unsupportedMediaType, code: "unsupported_type", message: message)
        case .quotaExceeded(let message): HTTPError(.payloadTooLarge, code: "quota_exceeded", message: message)
        case .tooMany(let message, let retryAfter): Self.tooManyRequests(message, retryAfter: retryAfter)
        case .unavailable(let message): HTTPError(.serviceUnavailable, code: "unavailable", message: message)
        }
    }

    /// Maps errors from the layers below to what the client is told.
    static func from(_ error: any Error) -> any Error {
        switch error {
        case let error as DragboardError: return error.httpError
        case let error as HTTPError: return error
        case let error as StoreError: return DragboardError(error).httpError
        case let error as DragAndDropError: return DragboardError(error).httpError
        default: return error
        }
    }

    init(_ error: StoreError) {
        switch error {
        case .unknownBoard(let id): self = .notFound("unknown board \(id)")
        case .unknownList(let id): self = .notFound("unknown list \(id)")
        case .unknownItem(let id): self = .notFound("unknown item \(id)")
        case .indexOutOfRange(let index, let count): self = .unprocessable("index \(index) is outside 0...\(count)")
        case .operationReused(let id): self = .unprocessable("operation \(id) was already used for a different drop")
        case .conflict(let message): self = .conflict(message)
        case .invalid(let message): self = .badRequest(message)
        case .unavailable(let message): self = .unavailable(message)
        }
    }

    init(_ error: DragAndDropError) {
        switch error {
        case .unknownTarget(let target): self = .notFound("unknown drop target: \(target)")
        case .destinationOutOfRange(let row, let count): self = .unprocessable("row \(row) is outside the list's \(count) rows")
        case .sessionEnded: self = .conflict("the drag session has already ended")
        case .dataNotAvailable, .noMatchingRepresentation: self = .unprocessable(error.description)
        case .unreadableData: self = .unprocessable(error.description)
        }
    }
}

extension DragboardError {
    /// 429 with `Retry-After` when the domain knows when a slot frees.
    static func tooManyRequests(_ message: String, retryAfter: Int?) -> HTTPError {
        var error = HTTPError(.tooManyRequests, code: "too_many", message: message)
        if let retryAfter { error.headers["Retry-After"] = String(retryAfter) }
        return error
    }
}
