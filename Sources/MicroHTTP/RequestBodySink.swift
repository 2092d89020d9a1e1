/// Receives a request body chunk by chunk, for uploads too large to buffer.
///
/// A route registered with ``Router/post(_:bodyLimit:streamingBody:)`` creates one sink per request once the
/// headers have arrived. The server then calls ``write(_:)`` for each chunk, and finally either ``finish()``
/// (the whole body arrived within the limit) or ``abort()`` (the client went away, the limit was exceeded, or a
/// `write` threw). Calls for one request are serial, on libmicrohttpd threads.
public protocol RequestBodySink: Sendable {
    /// Consumes the next chunk. The buffer is only valid during the call.
    /// - Throws: An ``HTTPError`` to stop reading and answer with that status (``abort()`` is then called).
    func write(_ chunk: UnsafeRawBufferPointer) throws
    /// Called after the last chunk; returns the response to send.
    /// If it throws, ``abort()`` is called and the error is answered.
    func finish() throws -> Response
    /// Discards everything written so far; nothing may remain half-stored.
    func abort()
}
