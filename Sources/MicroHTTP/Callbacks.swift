import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// The C callbacks given to libmicrohttpd. They are static members of a type (never closures in top-level code,
/// which Swift 6 would isolate to the main actor) and reach Swift objects only through their context pointers.
enum Callbacks {
    /// `MHD_AccessHandlerCallback`: called once with the headers, once per body chunk, and once at the end.
    static let handle: MHD_AccessHandlerCallback = { context, connection, url, method, version, uploadData, uploadSize, requestContext in
        guard let context, let connection, let url, let method, let uploadSize, let requestContext else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        guard let stored = requestContext.pointee else {
            let state = core.begin(connection, url: url, method: method, version: version)
            requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
        let size = uploadSize.pointee
        if size > 0 {
            uploadSize.pointee = 0  // everything consumed
            let keepOpen = core.consume(UnsafeRawBufferPointer(start: uploadData, count: size), state: state)
            return keepOpen ? .YES : .NO
        }
        core.complete(connection, state: state)
        return .YES
    }

    /// `MHD_RequestCompletedCallback`: releases the per-request state (and aborts an unfinished body sink).
    static let completed: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
        guard let context, let requestContext, let stored = requestContext.pointee else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
        requestContext.pointee = nil
        core.completed(state, connection: connection)
    }

    /// `MHD_NotifyConnectionCallback`: tells the connection tracker about accepted and closed connections.
    /// The connection's tracker entry is kept (retained) in its socket context until it closes.
    static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
        guard let context, let connection, let socketContext else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        if event == .CONNECTION_NOTIFY_STARTED {
            let entry = core.connections.opened(connection, socket: cmhd_connection_fd(connection))
            socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
        } else {
            core.connections.closed(connection)
            if let stored = socketContext.pointee {
                Unmanaged<ConnectionTracker.Entry>.fromOpaque(stored).release()
                socketContext.pointee = nil
            }
        }
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: called once the request line is parsed, before libmicrohttpd splits the
    /// query off the target. Notes the target's length (a raw NUL in it shortens it; see
    /// ``ServerCore/targetHasNUL(_:url:version:)``).
    /// Returns no request context, so the access handler's first call still starts the request.
    static let requestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, connection in
        guard let uri, let connection, let stored = cmhd_socket_context(connection) else { return nil }
        let entry = Unmanaged<ConnectionTracker.Entry>.fromOpaque(stored).takeUnretainedValue()
        entry.targetLength.store(strlen(uri), ordering: .relaxed)
        return nil
    }

    /// `MHD_KeyValueIterator` appending each value to the `HTTPHeaders` behind `context`.
    static let collectValue: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        let values = context.assumingMemoryBound(to: HTTPHeaders.self)
        values.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
        return .YES
    }

    /// `MHD_ContentReaderCallback` of an event stream.
    static let readStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
        return Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: capacity)
    }

    /// `MHD_ContentReaderFreeCallback` of an event stream: the response is gone, so is the client.
    static let releaseStream: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let stream = Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue()
        stream.finish()
    }

    /// Unescape callback that keeps the URL and arguments percent-encoded, so the server sees the raw path
    /// (encoded slashes, dots and NULs intact) and decodes it itself.
    static let keepEscapes: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = {
        _, _, string in
        string.map { strlen($0) } ?? 0
    }

    /// `MHD_LogCallback` forwarding libmicrohttpd's own messages to the server's logger.
    static let log: MHD_LogCallback = { context, format, arguments in
        guard let context, let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let message = String(cStringBuffer: buffer).trimmingSpaces().split(separator: "\n").joined(separator: " ")
        Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().logger.warning("libmicrohttpd: \(message)")
    }
}

extension String {
    /// Decodes a NUL-terminated C string stored in an array.
    init(cStringBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
