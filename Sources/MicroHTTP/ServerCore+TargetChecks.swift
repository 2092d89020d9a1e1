import CMicroHTTPD
import Synchronization

extension ServerCore {
    /// Whether libmicrohttpd parses request heads in place as 0.9.75 does, which the checks below rely on.
    static let parsesHeadsInPlace = MHD_get_version().map { String(cString: $0) } == "0.9.75"

    /// Whether the raw request target held a NUL byte. libmicrohttpd reads the target as a C string, so
    /// `/static/app.css<NUL>.html` would otherwise be served as `/static/app.css`. Its length was noted
    /// before the query was split off (``Callbacks/requestLine``); without a NUL it reaches the space
    /// libmicrohttpd replaced just before the HTTP version.
    func targetHasNUL(_ entry: ConnectionTracker.Entry, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>?) -> Bool {
        let length = entry.targetLength.load(ordering: .relaxed)
        guard Self.parsesHeadsInPlace, length >= 0, let version, version.pointee != 0 else { return false }
        return url + length + 1 != version
    }
}
