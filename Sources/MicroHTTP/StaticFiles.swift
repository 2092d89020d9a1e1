import Foundation

/// Serves the files of one directory from an allow-list built at start-up.
///
/// Every regular file under `directory` (not symbolic links, not dot-files, not anything inside a dot-directory)
/// is listed in ``init(directory:cacheControl:)`` with its content type and an ETag, once by its path and once
/// under the directory's ``version``, where browsers may keep it for good. A request is answered
/// only when its relative path is exactly a listed key, so no path is ever joined or opened from request input:
/// `..`, encoded dots or slashes, backslashes, NUL bytes and absolute paths all answer 404.
///
/// Text files kept in memory are also compressed once, by the system's `gzip` (``Gzip``), and sent compressed
/// to requests whose `Accept-Encoding` accepts gzip, with an ETag of their own and `Vary: Accept-Encoding`.
///
/// ```swift
/// router.mount(try StaticFiles(directory: "Public"), at: "/static")
/// ```
public struct StaticFiles: Sendable {
    struct Entry: Sendable {
        enum Content: Sendable {
            case bytes([UInt8])
            case file(path: String)
        }
        let content: Content
        let etag: String
        let contentType: String
        /// Listed under ``StaticFiles/version``: what is there never changes.
        var isVersioned = false
        /// The content compressed by gzip, when in memory, text, and worth it (``Gzip/isWorthIt(contentType:size:compressed:)``).
        var gzipped: [UInt8]?

        /// The ETag of the gzip copy: a strong ETag names one representation's bytes, so the copy has its own.
        var gzipETag: String { String(etag.dropLast()) + "-gz\"" }
    }

    /// Files at most this large are kept in memory; larger ones are read from their listed path per request.
    static let inMemoryLimit = 1 << 20

    let entries: [String: Entry]
    let cacheControl: String
    /// A digest of every file's path and content: each file is served under `<version>/` too
    /// (`/static/<version>/app.js`), cached by the browser for good (`immutable`). Any change to any
    /// file gives new URLs, and relative imports between modules stay inside one version.
    public let version: String
    /// The `Cache-Control` of a file under ``version``.
    static let versionedCacheControl = "public, max-age=31536000, immutable"

    /// Lists every regular file under `directory`, and compresses its text files with `gzip`.
    /// - Parameters:
    ///   - directory: The directory to serve.
    ///   - cacheControl: The `Cache-Control` value sent with every file.
    ///   - gzip: The program that compresses text files once, here; `nil` serves every file as it is.
    /// - Throws: If the directory or a file in it cannot be read.
    public init(directory: String, cacheControl: String = "public, max-age=300", gzip: Gzip? = .onPath()) throws {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.path
        let fileManager = FileManager.default
        var entries: [String: Entry] = [:]
        for relativePath in try fileManager.subpathsOfDirectory(atPath: root) {
            let components = relativePath.split(separator: "/")
            guard !components.contains(where: { $0.hasPrefix(".") }), !relativePath.contains("\\") else { continue }
            let path = root + "/" + relativePath
            let attributes = try fileManager.attributesOfItem(atPath: path)  // does not follow symlinks
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            entries[relativePath] = Entry(
                content: bytes.count <= Self.inMemoryLimit ? .bytes(bytes) : .file(path: path),
                etag: Self.etag(for: bytes),
                contentType: Self.contentType(forPath: relativePath)
            )
        }
        gzip?.compressText(of: &entries)
        let version = Self.version(of: entries)
        for (path, entry) in entries {
            var versioned = entry
            versioned.isVersioned = true
            entries[version + "/" + path] = versioned
        }
        self.entries = entries
        self.cacheControl = cacheControl
        self.version = version
    }

    /// The relative paths served (each also under ``version``), sorted.
    public var paths: [String] { entries.filter { !$0.value.isVersioned }.keys.sorted() }

    /// 16 hex digits of an FNV-1a digest over the sorted paths and their ETags.
    static func version(of entries: [String: Entry]) -> String {
        let listing = entries.keys.sorted().map { $0 + " " + entries[$0]!.etag }.joined(separator: "\n")
        let etag = Self.etag(for: Array(listing.utf8))   // "\"<16 hex digits>-<length>\""
        return String(etag.dropFirst().prefix(16))
    }

    /// Answers a `GET`/`HEAD` for `relativePath` (e.g. `"css/app.css"`): 200 with `Content-Type`, `ETag` and
    /// `Cache-Control`; 304 when `If-None-Match` matches; 404 for anything not in the allow-list.
    /// The gzip copy, when there is one, goes to requests whose `Accept-Encoding` accepts it.
    public func response(for request: Request, relativePath: String) -> Response {
        guard Self.isPlausible(rawPath: request.rawPath), let entry = entries[relativePath] else {
            return HTTPError.notFound.response
        }
        let gzipped = entry.gzipped.flatMap { Gzip.isAccepted(by: request.headers.values("Accept-Encoding")) ? $0 : nil }
        // Compared with the ETag of the copy chosen (RFC 9110 §13.1.2): a 304 tells a cache that what it holds
        // under that tag is what would be sent now.
        if let ifNoneMatch = request.headers["If-None-Match"], Self.matches(ifNoneMatch, etag: gzipped == nil ? entry.etag : entry.gzipETag) {
            return Response(status: .notModified, headers: headers(for: entry, gzip: gzipped != nil, notModified: true))
        }
        let headers = headers(for: entry, gzip: gzipped != nil, notModified: false)
        if let gzipped { return Response(status: .ok, headers: headers, body: .bytes(gzipped)) }
        switch entry.content {
        case .bytes(let bytes):
            return Response(status: .ok, headers: headers, body: .bytes(bytes))
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                return HTTPError.notFound.response
            }
            return Response(status: .ok, headers: headers, body: .bytes([UInt8](data)))
        }
    }

    /// The headers of a 200 or a 304 for `entry`, or its gzip copy (the server adds its default headers).
    /// Both copies of a file that has two say `Vary: Accept-Encoding`, so no cache hands one to a client that
    /// asked for the other; a 304 leaves out what describes the body (RFC 9110 §15.4.5).
    func headers(for entry: Entry, gzip: Bool = false, notModified: Bool) -> HTTPHeaders {
        var headers: HTTPHeaders = ["ETag": gzip ? entry.gzipETag : entry.etag, "Cache-Control": entry.isVersioned ? Self.versionedCacheControl : cacheControl]
        if entry.gzipped != nil { headers["Vary"] = "Accept-Encoding" }
        if !notModified {
            headers["Content-Type"] = entry.contentType
            if gzip { headers["Content-Encoding"] = "gzip" }
        }
        return headers
    }

    /// Rejects request targets that try to smuggle traversal through encoding before it is decoded:
    /// encoded dots, slashes, backslashes or NULs, literal backslashes, and `..` segments.
    static func isPlausible(rawPath: String?) -> Bool {
        guard var rawPath else { return true }
        // One pass over the bytes: every static file request asks, and lower-casing, seven substring
        // searches and a split cost more than answering from the prepared response.
        return rawPath.withUTF8 { bytes in
            var segmentStart = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
                switch byte {
                case UInt8(ascii: "\\"), 0:
                    return false
                case UInt8(ascii: "%") where index + 2 < bytes.count:
                    let high = bytes[index + 1], low = bytes[index + 2] | 0x20  // %2e, %2f, %5c, %00 in any case
                    if (high == UInt8(ascii: "2") && (low == UInt8(ascii: "e") || low == UInt8(ascii: "f")))
                        || (high == UInt8(ascii: "5") && low == UInt8(ascii: "c"))
                        || (high == UInt8(ascii: "0") && bytes[index + 2] == UInt8(ascii: "0"))
                    {
                        return false
                    }
                case UInt8(ascii: "/"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { return false }
                    // A "." or ".." segment (the leading "/" starts none).
                    let length = index - segmentStart
                    if index > 0, length == 1 || length == 2,
                        bytes[segmentStart..<index].allSatisfy({ $0 == UInt8(ascii: ".") })
                    {
                        return false
                    }
                    segmentStart = index + 1
                default:
                    break
                }
            }
            return true
        }
    }

    /// Whether an `If-None-Match` list (or `*`) matches `etag`, using weak comparison.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
