import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

/// Text files are compressed once at start by the system's gzip and sent compressed to whoever accepts gzip,
/// through the router in process and through a real server's prepared responses alike.
@Suite struct StaticFilesEncodingTests {
    /// `public/{app.js,style.css,logo.svg}` (text, a few KB), `tiny.js` (255 bytes) and `edge.js` (256),
    /// `photo.png` (4 KiB of zeros: compressible, but an image), `noise.txt` (random bytes: gzip cannot
    /// make it smaller) and `huge.js` (over 1 MiB: read from disk per request).
    final class Fixture {
        let root = NSTemporaryDirectory() + "microhttp-gzip-" + UUID().uuidString
        var publicDirectory: String { root + "/public" }

        init() throws {
            try FileManager.default.createDirectory(atPath: publicDirectory, withIntermediateDirectories: true)
            let script = (0..<200).map { "export const value\($0) = \($0 * 7);  // line \($0)\n" }.joined()
            try write(Array(script.utf8), "app.js")
            try write(Array((0..<100).map { ".row-\($0) { margin: \($0)px; color: #\($0 % 10)\($0 % 10)0; }\n" }.joined().utf8), "style.css")
            try write(Array(("<svg xmlns='http://www.w3.org/2000/svg'>" + (0..<30).map { "<rect x='\($0)' width='4' height='4'/>" }.joined() + "</svg>\n").utf8), "logo.svg")
            try write(Array(repeating: UInt8(ascii: "a"), count: 254) + [10], "tiny.js")
            try write(Array(repeating: UInt8(ascii: "a"), count: 255) + [10], "edge.js")
            try write([UInt8](repeating: 0, count: 4096), "photo.png")
            var generator = SystemRandomNumberGenerator()
            try write((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }, "noise.txt")
            try write(Array(String(repeating: "let x = 1;\n", count: 100_000).utf8), "huge.js")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ bytes: [UInt8], _ name: String) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: publicDirectory + "/" + name))
        }

        func bytes(_ name: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: publicDirectory + "/" + name)))
        }

        /// `compressed` decompressed by the system's gzip (no library in the tests either).
        func gunzip(_ compressed: [UInt8]) throws -> [UInt8] {
            let path = root + "/body-\(UUID().uuidString).gz"
            try Data(compressed).write(to: URL(fileURLWithPath: path))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
            process.arguments = ["-dc", path]
            let output = Pipe()
            process.standardOutput = output
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }  // waitUntilExit polls, 50 ms a call
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            exited.wait()
            try #require(process.terminationStatus == 0, "gzip -dc failed")
            return [UInt8](data)
        }
    }

    /// The two ways a static file is answered: ``StaticFiles/response(for:relativePath:)`` (the router in
    /// process, and the server's slow path), and the responses a real server prepared at start.
    enum Way: String, CaseIterable, Sendable { case router, server }

    typealias Fetch = (_ method: String, _ target: String, _ headers: [(String, String)]) throws -> TestResponse

    static func fetching(_ way: Way, _ files: StaticFiles, _ body: (Fetch) throws -> Void) throws {
        var router = Router()
        router.mount(files, at: "/static")
        switch way {
        case .router:
            try body { method, target, headers in
                var fields = HTTPHeaders()
                for (name, value) in headers { fields.add(name, value) }
                let response = router.respond(to: Request(method: HTTPMethod(rawValue: method), path: target, headers: fields))
                guard case .bytes(let bytes) = response.body else { throw TestClientError.malformed("not bytes") }
                return TestResponse(status: response.status.code, headers: response.headers.map { ($0.name, $0.value) }, body: bytes)
            }
        case .server:
            try withServer(router) { server in try body { try request(server, $0, $1, headers: $2) } }
        }
    }

    static let accepting = ["gzip", "gzip, deflate, br", "*", "GZIP;q=0.5", "x-gzip", "br;q=1, gzip;q=0.1",
                            "deflate,\tgzip ; Q=1.000", "identity;q=0.5, gzip", "gzip;q=0.9, identity;q=0.9", ", ,gzip"]

    @Test(arguments: Way.allCases, accepting)
    func gzipGoesToWhoeverAcceptsIt(way: Way, acceptEncoding: String) throws {
        let fixture = try Fixture()
        let files = try StaticFiles(directory: fixture.publicDirectory)
        try Self.fetching(way, files) { fetch in
            for (name, type) in [("app.js", "text/javascript"), ("style.css", "text/css"), ("logo.svg", "image/svg+xml"), ("edge.js", "text/javascript")] {
                let plain = try fetch("GET", "/static/" + name, [])
                let response = try fetch("GET", "/static/" + name, [("Accept-Encoding", acceptEncoding)])
                #expect(response.status == 200)
                #expect(response.header("Content-Encoding") == "gzip", "\(name)")
                #expect(response.header("Vary") == "Accept-Encoding")
                #expect(response.header("Content-Type")?.hasPrefix(type) == true)
                #expect(response.header("Cache-Control") == "public, max-age=300")
                #expect(response.body.count < plain.body.count * 9 / 10)
                #expect(try fixture.gunzip(response.body) == fixture.bytes(name), "\(name): the same bytes once decompressed")
                let identityTag = try #require(plain.header("ETag"))
                #expect(response.header("ETag") == String(identityTag.dropLast()) + "-gz\"")
                if way == .server { #expect(response.header("Content-Length") == String(response.body.count)) }
            }
            // Fields of one name are one list.
            let split = try fetch("GET", "/static/app.js", [("Accept-Encoding", "br"), ("Accept-Encoding", acceptEncoding)])
            #expect(split.header("Content-Encoding") == "gzip")
        }
    }

    static let refusing: [String?] = [nil, "", "gzip;q=0", "identity", "br", "*;q=0", "deflate, br;q=1", "gzip;q=0.000",
                                      "gzip;q=abc", "gzip;q=1.5", "*, gzip;q=0", "gzip;q=0.4, identity;q=0.8", "gzipx", "x-gzip;q=0"]

    @Test(arguments: Way.allCases, refusing)
    func identityGoesToWhoeverDoesNotAcceptGzip(way: Way, acceptEncoding: String?) throws {
        let fixture = try Fixture()
        try Self.fetching(way, try StaticFiles(directory: fixture.publicDirectory)) { fetch in
            let response = try fetch("GET", "/static/app.js", acceptEncoding.map { [("Accept-Encoding", $0)] } ?? [])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("Vary") == "Accept-Encoding", "a cache must not hand this copy to a client that accepts gzip")
            #expect(response.body == (try fixture.bytes("app.js")))
            #expect(response.header("ETag")?.hasSuffix("-gz\"") == false)
        }
    }

    @Test(arguments: Way.allCases)
    func ifNoneMatchIsComparedWithTheChosenCopysTag(way: Way) throws {
        let fixture = try Fixture()
        let files = try StaticFiles(directory: fixture.publicDirectory)
        try Self.fetching(way, files) { fetch in
            for target in ["/static/style.css", "/static/\(files.version)/style.css"] {
                let gzip = [("Accept-Encoding", "gzip")]
                let identityTag = try #require(try fetch("GET", target, []).header("ETag"))
                let gzipTag = try #require(try fetch("GET", target, gzip).header("ETag"))
                #expect(identityTag != gzipTag, "a strong ETag names one representation")

                let cached = try fetch("GET", target, gzip + [("If-None-Match", gzipTag)])
                #expect(cached.status == 304)
                #expect(cached.body.isEmpty)
                #expect(cached.header("ETag") == gzipTag)
                #expect(cached.header("Vary") == "Accept-Encoding")
                #expect(cached.header("Content-Encoding") == nil && cached.header("Content-Type") == nil)
                let cachedIdentity = try fetch("GET", target, [("If-None-Match", "W/" + identityTag)])
                #expect(cachedIdentity.status == 304)
                #expect(cachedIdentity.header("ETag") == identityTag)
                #expect(cachedIdentity.header("Vary") == "Accept-Encoding")
                // The other copy's tag does not match: the client holds other bytes than those it would get now.
                let switched = try fetch("GET", target, gzip + [("If-None-Match", identityTag)])
                #expect(switched.status == 200 && switched.header("Content-Encoding") == "gzip")
                let switchedBack = try fetch("GET", target, [("If-None-Match", gzipTag)])
                #expect(switchedBack.status == 200 && switchedBack.header("Content-Encoding") == nil)
                #expect(switchedBack.body == (try fixture.bytes("style.css")))
                if target.contains(files.version) {
                    #expect(switched.header("Cache-Control") == "public, max-age=31536000, immutable")
                    #expect(cached.header("Cache-Control") == "public, max-age=31536000, immutable")
                }
            }
        }
    }

    @Test(arguments: Way.allCases)
    func smallBinaryIncompressibleAndLargeFilesAreNeverCompressed(way: Way) throws {
        let fixture = try Fixture()
        try Self.fetching(way, try StaticFiles(directory: fixture.publicDirectory)) { fetch in
            for name in ["tiny.js", "photo.png", "noise.txt", "huge.js"] {
                let response = try fetch("GET", "/static/" + name, [("Accept-Encoding", "gzip, deflate, br")])
                #expect(response.status == 200)
                #expect(response.header("Content-Encoding") == nil, "\(name)")
                #expect(response.header("Vary") == nil, "\(name): one representation only")
                #expect(response.body == (try fixture.bytes(name)), "\(name)")
            }
        }
    }

    @Test(arguments: Way.allCases, [nil, "/nonexistent/gzip", "/bin/false", "/bin/cat"])
    func withoutAWorkingGzipEveryFileIsServedAsItIs(way: Way, executable: String?) throws {
        let fixture = try Fixture()
        let files = try StaticFiles(directory: fixture.publicDirectory, gzip: executable.map(StaticFiles.Gzip.init(executable:)))
        try Self.fetching(way, files) { fetch in
            let response = try fetch("GET", "/static/app.js", [("Accept-Encoding", "gzip")])
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("Vary") == nil)
            #expect(response.body == (try fixture.bytes("app.js")))
        }
    }

    @Test func gzipIsFoundOnPathOnly() throws {
        #expect(StaticFiles.Gzip.onPath("/nonexistent:usr/bin:bin") == nil, "relative entries are skipped")
        #expect(StaticFiles.Gzip.onPath("/nonexistent:/usr/bin")?.executable == "/usr/bin/gzip")
        #expect(StaticFiles.Gzip.onPath(nil)?.executable == "/usr/bin/gzip", "no PATH: the usual directories")
    }

    /// HEAD tells each copy's length without sending it, and a `Range` is still ignored (the whole file, 200)
    /// — both on one keep-alive connection, where a body sent by mistake would be read as the next response.
    @Test func headAndRangeOnEitherCopy() throws {
        let fixture = try Fixture()
        var router = Router()
        router.mount(try StaticFiles(directory: fixture.publicDirectory), at: "/static")
        try withServer(router) { server in
            let connection = try TestConnection(port: server.port)
            var lengths: [String: Int] = [:]
            for accept in ["gzip", "identity"] {
                try connection.send("GET /static/app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: \(accept)\r\n\r\n")
                lengths[accept] = try connection.readResponse().body.count
            }
            #expect(lengths["gzip"]! < lengths["identity"]!)
            for accept in ["gzip", "identity"] {
                try connection.send("HEAD /static/app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: \(accept)\r\n\r\n")
                let head = try connection.readResponse(head: true)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == String(lengths[accept]!))
                #expect(head.header("Content-Encoding") == (accept == "gzip" ? "gzip" : nil))
                #expect(head.header("Vary") == "Accept-Encoding")
                try connection.send("GET /static/app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: \(accept)\r\nRange: bytes=0-9\r\n\r\n")
                let ranged = try connection.readResponse()
                #expect(ranged.status == 200)
                #expect(ranged.body.count == lengths[accept]!)
            }
            try connection.send("GET /static/app.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n")
            #expect(try fixture.gunzip(connection.readResponse().body) == fixture.bytes("app.js"))
        }
    }
}
