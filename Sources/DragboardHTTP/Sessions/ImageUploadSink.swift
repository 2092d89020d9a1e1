import Dragboard
import Foundation
import MicroHTTP
import Synchronization

/// Writes an uploaded image straight to a file — memory stays constant whatever its size — and
/// refuses anything whose first bytes are not PNG, JPEG, GIF or WebP. An aborted or refused
/// upload leaves no file behind. The bytes it may write were reserved before it was made; what it
/// did not use (or all of them, when it fails) goes back through `release`.
final class ImageUploadSink: RequestBodySink {
    private struct State {
        var handle: FileHandle?
        var header: [UInt8] = []
        var size = 0
        var format: ImageFormat?
        var aborted = false
        var reservationSettled = false
    }

    private let state = Mutex(State())
    private let payload: DropPayload
    private let id = UUID().uuidString.lowercased()
    private let url: URL
    private let name: String
    private let limit: Int
    private let reserved: Int
    private let release: @Sendable (Int) -> Void

    init(payload: DropPayload, name: String, limit: Int, reserved: Int, release: @escaping @Sendable (Int) -> Void) throws {
        self.payload = payload
        self.name = name
        self.limit = limit
        self.reserved = reserved
        self.release = release
        url = payload.uploadDirectory.appendingPathComponent(id)
        try payload.reserveUpload()
        do {
            try FileManager.default.createDirectory(at: payload.uploadDirectory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw DragboardError.badRequest("cannot store the upload") }
        } catch {
            payload.releaseUpload()
            throw error
        }
        state.withLock { $0.handle = FileHandle(forWritingAtPath: url.path) }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            guard let handle = state.handle else { return }
            state.size += chunk.count
            // A body sent in chunks has no length to reserve by; the largest file was reserved instead.
            guard state.size <= min(limit, reserved) else { throw DragboardError.tooLarge("images are limited to \(limit / 1024 / 1024) MB").httpError }
            if state.format == nil {
                state.header += chunk.prefix(ImageFormat.headerLength - state.header.count)
                if state.header.count >= ImageFormat.headerLength {
                    guard let format = ImageFormat(header: state.header) else {
                        throw DragboardError.unsupportedType("the file is not a PNG, JPEG, GIF or WebP image").httpError
                    }
                    state.format = format
                }
            }
            try handle.write(contentsOf: chunk)
        }
    }

    func finish() throws -> Response {
        let (format, size): (ImageFormat, Int)
        do {
            (format, size) = try state.withLock { state -> (ImageFormat, Int) in
                try state.handle?.synchronize()
                try state.handle?.close()
                state.handle = nil
                guard let format = state.format ?? ImageFormat(header: state.header) else {
                    throw DragboardError.unsupportedType("the file is not a PNG, JPEG, GIF or WebP image").httpError
                }
                return (format, state.size)
            }
        } catch {
            abort()
            throw error
        }
        settleReservation(keeping: size)
        payload.addUpload(id, DroppedImage(file: url, format: format, size: size, name: name))
        return .json(BoardAPI.UploadResponse(file: id, size: size, type: format.rawValue), status: .created)
    }

    /// Idempotent: the server may abort a sink that already failed.
    func abort() {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.aborted = true }
            try? state.handle?.close()
            state.handle = nil
            return !state.aborted
        }
        // Given back before the file goes: whoever sees the file gone may send the upload again.
        if wasOpen { payload.releaseUpload() }
        settleReservation(keeping: 0)
        try? FileManager.default.removeItem(at: url)
    }

    /// Gives back the reserved bytes beyond `kept`, once.
    private func settleReservation(keeping kept: Int) {
        let settled = state.withLock { state -> Bool in
            defer { state.reservationSettled = true }
            return state.reservationSettled
        }
        if !settled, reserved > kept { release(reserved - kept) }
    }
}
