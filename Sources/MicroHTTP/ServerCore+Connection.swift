import CMicroHTTPD
import Glibc

extension ServerCore {
    /// Every value of one kind (headers, query arguments), in the order received, as raw strings.
    static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> HTTPHeaders {
        var values = HTTPHeaders()
        _ = withUnsafeMutablePointer(to: &values) { pointer in
            MHD_get_connection_values(connection, kind, Callbacks.collectValue, pointer)
        }
        return values
    }

    /// The numeric address of the client, e.g. `"127.0.0.1"`.
    static func clientAddress(_ connection: OpaquePointer) -> String? {
        // On the stack: asked once per request.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            guard let base = buffer.baseAddress, cmhd_client_address(connection, base, socklen_t(buffer.count)) == 1 else { return nil }
            return String(cString: base)
        }
    }
}
