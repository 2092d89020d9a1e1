import CMicroHTTPD

/// Keeps a large response body alive while libmicrohttpd sends it straight from the array's storage.
final class BodyStorage {
    let bytes: [UInt8]

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A libmicrohttpd response reading `bytes` in place; the storage is released by libmicrohttpd's free
    /// callback once the last connection is done with it.
    static func response(for bytes: [UInt8]) -> OpaquePointer? {
        let storage = BodyStorage(bytes)
        // A native array that is never mutated again keeps its elements at one address for its lifetime.
        let base = storage.bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let context = Unmanaged.passRetained(storage).toOpaque()
        guard let response = MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, base, release, context) else {
            Unmanaged<BodyStorage>.fromOpaque(context).release()
            return nil
        }
        return response
    }

    /// `MHD_ContentReaderFreeCallback`: drops the storage's last reference.
    private static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<BodyStorage>.fromOpaque(context).release()
    }
}
