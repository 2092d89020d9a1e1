import MicroHTTP
import Synchronization

/// How many import files the server receives at once. A file (up to 50 MB) is held in memory until
/// it is read; without a cap, a burst of imports would be (connections × 50 MB).
final class ImportSlots: Sendable {
    private let taken = Mutex(0)
    let limit: Int

    init(limit: Int = 2) {
        self.limit = limit
    }

    /// Takes a slot, or refuses from the request's head, before a byte of its body is read.
    func take() throws(HTTPError) {
        let granted = taken.withLock { taken -> Bool in
            guard taken < limit else { return false }
            taken += 1
            return true
        }
        guard granted else {
            var error = HTTPError(.tooManyRequests, code: "imports_busy",
                                  message: "The server is already importing \(limit) boards; try again in a few seconds.")
            error.headers["Retry-After"] = "5"
            throw error
        }
    }

    func give() {
        taken.withLock { $0 -= 1 }
    }
}

/// Receives an import file while holding an import slot, then hands it to `complete` (on the bulk lane).
final class ImportBodySink: RequestBodySink {
    private let body = Mutex<[UInt8]>([])
    private let released = Mutex(false)
    private let slots: ImportSlots
    private let complete: @Sendable ([UInt8]) throws -> Response

    init(slots: ImportSlots, expectedBytes: Int?, complete: @escaping @Sendable ([UInt8]) throws -> Response) throws {
        try slots.take()
        self.slots = slots
        self.complete = complete
        if let expectedBytes { body.withLock { $0.reserveCapacity(expectedBytes) } }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        body.withLock { $0.append(contentsOf: chunk) }
    }

    func finish() throws -> Response {
        let bytes = body.withLock { body in defer { body = [] }; return body }
        release()
        return try complete(bytes)
    }

    func abort() {
        body.withLock { $0 = [] }
        release()
    }

    /// Gives the slot back once, whichever of finish and abort comes (abort may follow a failed finish).
    private func release() {
        let first = released.withLock { released in defer { released = true }; return !released }
        if first { slots.give() }
    }
}
