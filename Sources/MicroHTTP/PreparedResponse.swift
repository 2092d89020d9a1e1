import CMicroHTTPD

/// A libmicrohttpd response built once, with all its headers, and queued on any number of connections.
///
/// libmicrohttpd reference-counts responses and lets several connections send one at once; queuing a
/// prepared response costs no allocation, copy or header work per request.
final class PreparedResponse: @unchecked Sendable {  // immutable after init; libmicrohttpd locks its count
    let status: HTTPStatus
    let raw: OpaquePointer

    /// Copies `body` once into libmicrohttpd's memory; `nil` when libmicrohttpd refuses a header.
    init?(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8]) {
        let created = body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        for (name, value) in headers where !ServerCore.isManaged(name) {
            guard MHD_add_response_header(created, name, value) == .YES else {
                MHD_destroy_response(created)
                return nil
            }
        }
        self.status = status
        raw = created
    }

    /// `response` (bytes only) with the server's `defaultHeaders` added, as ``ServerCore/respond(_:to:on:)`` would send it.
    convenience init?(_ response: Response, defaultHeaders: HTTPHeaders) {
        guard case .bytes(let body) = response.body else { return nil }
        var headers = response.headers
        headers.addMissing(from: defaultHeaders)
        self.init(status: response.status, headers: headers, body: body)
    }

    deinit { MHD_destroy_response(raw) }  // connections still sending it keep their own reference
}

/// The in-memory files of every mount, as prepared 200 and 304 responses with the server's default headers:
/// one pair per file, and a second for its gzip copy when it has one.
struct PreparedStaticFiles: Sendable {
    struct Pair: Sendable {
        let etag: String
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    struct File: Sendable {
        let identity: Pair
        let gzip: Pair?
    }

    /// Per mount (in the router's order), relative path → responses.
    private let mounts: [[String: File]]

    init(router: Router, defaultHeaders: HTTPHeaders) {
        mounts = router.mounts.map { mount in
            var files: [String: File] = [:]
            for (path, entry) in mount.files.entries {
                guard case .bytes(let bytes) = entry.content else { continue }  // large files stay on disk
                guard let identity = Self.pair(mount.files, entry, gzip: false, body: bytes, defaultHeaders: defaultHeaders) else { continue }
                // A copy libmicrohttpd refuses is answered the slow way, like a file it refuses altogether.
                var gzip: Pair?
                if let gzipped = entry.gzipped {
                    guard let pair = Self.pair(mount.files, entry, gzip: true, body: gzipped, defaultHeaders: defaultHeaders) else { continue }
                    gzip = pair
                }
                files[path] = File(identity: identity, gzip: gzip)
            }
            return files
        }
    }

    private static func pair(_ files: StaticFiles, _ entry: StaticFiles.Entry, gzip: Bool, body: [UInt8], defaultHeaders: HTTPHeaders) -> Pair? {
        var okHeaders = files.headers(for: entry, gzip: gzip, notModified: false)
        var notModifiedHeaders = files.headers(for: entry, gzip: gzip, notModified: true)
        okHeaders.addMissing(from: defaultHeaders)
        notModifiedHeaders.addMissing(from: defaultHeaders)
        guard let ok = PreparedResponse(status: .ok, headers: okHeaders, body: body),
            let notModified = PreparedResponse(status: .notModified, headers: notModifiedHeaders, body: [])
        else { return nil }
        return Pair(etag: gzip ? entry.gzipETag : entry.etag, ok: ok, notModified: notModified)
    }

    /// The prepared answer to a request for `relativePath` in mount `mount`, or `nil` to build it the slow way.
    /// The gzip pair answers requests that accept gzip; `If-None-Match` is compared with the chosen pair's ETag,
    /// as ``StaticFiles/response(for:relativePath:)`` does.
    func response(mount: Int, relativePath: String, request: Request) -> PreparedResponse? {
        guard mounts.indices.contains(mount), let file = mounts[mount][relativePath],
            StaticFiles.isPlausible(rawPath: request.rawPath)
        else { return nil }
        var pair = file.identity
        if let gzip = file.gzip, StaticFiles.Gzip.isAccepted(by: request.headers.values("Accept-Encoding")) { pair = gzip }
        if let ifNoneMatch = request.headers["If-None-Match"], StaticFiles.matches(ifNoneMatch, etag: pair.etag) {
            return pair.notModified
        }
        return pair.ok
    }
}
