import Foundation
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct StaticFilesTests {
    static let secret = "TOP-SECRET-7f3a9c"

    /// A temporary tree: `root/public/{app.js,style.css,index.html,img/logo.svg,data.bin,.hidden}`,
    /// `root/secret.txt`, and a symlink `public/link.txt → ../secret.txt`.
    final class Fixture {
        let root: String
        let publicDirectory: String

        init() throws {
            root = NSTemporaryDirectory() + "microhttp-static-" + UUID().uuidString
            publicDirectory = root + "/public"
            let fileManager = FileManager.default
            try fileManager.createDirectory(atPath: publicDirectory + "/img", withIntermediateDirectories: true)
            try Self.write("console.log('hi')\n", to: publicDirectory + "/app.js")
            try Self.write("body { color: red }\n", to: publicDirectory + "/style.css")
            try Self.write("<!doctype html><title>x</title>\n", to: publicDirectory + "/index.html")
            try Self.write("<svg xmlns='http://www.w3.org/2000/svg'/>\n", to: publicDirectory + "/img/logo.svg")
            try Self.write("binary", to: publicDirectory + "/data.bin")
            try Self.write(StaticFilesTests.secret, to: publicDirectory + "/.hidden")
            try Self.write(StaticFilesTests.secret, to: root + "/secret.txt")
            try fileManager.createSymbolicLink(atPath: publicDirectory + "/link.txt", withDestinationPath: "../secret.txt")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        static func write(_ text: String, to path: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    private func makeRouter(_ fixture: Fixture) throws -> Router {
        var router = Router()
        router.mount(try StaticFiles(directory: fixture.publicDirectory), at: "/static")
        router.get("/hello") { _ in .text("hello") }
        return router
    }

    @Test func foreignHostGets421NotTheFile() throws {
        let fixture = try Fixture()
        try withServer(try makeRouter(fixture)) { (server: HTTPServer) throws in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET /static/app.js HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nConnection: close\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 421)
            #expect(!response.text.contains("console.log"))
            #expect(try request(server, "GET", "/static/app.js").text.contains("console.log"))
        }
    }

    @Test func allowListHoldsOnlyRegularVisibleFiles() throws {
        let fixture = try Fixture()
        let files = try StaticFiles(directory: fixture.publicDirectory)
        #expect(files.paths == ["app.js", "data.bin", "img/logo.svg", "index.html", "style.css"])
    }

    @Test func servesFilesWithTypeETagAndCacheControl() throws {
        let fixture = try Fixture()
        try withServer(try makeRouter(fixture)) { server in
            let expectations = [
                ("/static/app.js", "text/javascript; charset=utf-8"),
                ("/static/style.css", "text/css; charset=utf-8"),
                ("/static/index.html", "text/html; charset=utf-8"),
                ("/static/img/logo.svg", "image/svg+xml"),
                ("/static/data.bin", "application/octet-stream"),
            ]
            for (path, contentType) in expectations {
                let response = try request(server, "GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.header("Content-Type") == contentType, "\(path)")
                #expect(response.header("Cache-Control") == "public, max-age=300")
                #expect(response.header("ETag")?.hasPrefix("\"") == true)
                #expect(response.header("X-Content-Type-Options") == "nosniff")
            }
            #expect(try request(server, "GET", "/static/app.js").text == "console.log('hi')\n")
        }
    }

    @Test func everyFileIsServedUnderTheVersionOfTheWholeDirectoryCachedForGood() throws {
        let fixture = try Fixture()
        let version = try StaticFiles(directory: fixture.publicDirectory).version
        #expect(version.count == 16 && version.allSatisfy(\.isHexDigit))
        try withServer(try makeRouter(fixture)) { server in
            let versioned = try request(server, "GET", "/static/\(version)/img/logo.svg")
            #expect(versioned.status == 200)
            #expect(versioned.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(versioned.header("Content-Type") == "image/svg+xml")
            #expect(versioned.header("ETag") == (try request(server, "GET", "/static/img/logo.svg")).header("ETag"))
            #expect(try request(server, "GET", "/static/0123456789abcdef/app.js").status == 404, "another version is not this one")
            #expect(try request(server, "GET", "/static/\(version)/../secret.txt").status == 404)
        }
        // Any change to any file is a new version: a page never gets a stale file from the browser's cache.
        try Fixture.write("console.log('changed')\n", to: fixture.publicDirectory + "/app.js")
        #expect(try StaticFiles(directory: fixture.publicDirectory).version != version)
        #expect(try StaticFiles(directory: fixture.publicDirectory).version == StaticFiles(directory: fixture.publicDirectory).version)
    }

    @Test func ifNoneMatchGives304() throws {
        let fixture = try Fixture()
        try withServer(try makeRouter(fixture)) { server in
            let first = try request(server, "GET", "/static/style.css")
            let etag = try #require(first.header("ETag"))
            let cached = try request(server, "GET", "/static/style.css", headers: [("If-None-Match", etag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == etag)
            let weak = try request(server, "GET", "/static/style.css", headers: [("If-None-Match", "\"other\", W/\(etag)")])
            #expect(weak.status == 304)
            let stale = try request(server, "GET", "/static/style.css", headers: [("If-None-Match", "\"stale\"")])
            #expect(stale.status == 200)
            // Different content, different tag.
            #expect(try request(server, "GET", "/static/app.js").header("ETag") != etag)
        }
    }

    @Test func nonGetMethodsAre405() throws {
        let fixture = try Fixture()
        try withServer(try makeRouter(fixture)) { server in
            let response = try request(server, "POST", "/static/app.js")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test(arguments: [
        "/static/../secret.txt",
        "/static/img/../../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/%2E%2E/secret.txt",
        "/static/.%2e/secret.txt",
        "/static/%2e%2e%2fsecret.txt",
        "/static/..%2Fsecret.txt",
        "/static/img%2flogo.svg",
        "/static/..%5csecret.txt",
        "/static/..\\secret.txt",
        "/static/app.js%00.png",
        "/static/%00",
        "/static//etc/passwd",
        "//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/link.txt",
        "/static/.hidden",
        "/static/./app.js",
        "/static/",
        "/static",
    ])
    func traversalAttemptsAreRefused(path: String) throws {
        let fixture = try Fixture()
        try withServer(try makeRouter(fixture)) { server in
            let connection = try TestConnection(port: server.port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let raw = try connection.readUntilClosed()
            let text = String(decoding: raw, as: UTF8.self)
            // A NUL byte (%00) is refused as a bad request before any route or file is looked at.
            #expect(text.hasPrefix(path.contains("%00") ? "HTTP/1.1 400" : "HTTP/1.1 404"), "\(path) → \(text.prefix(40))")
            #expect(!text.contains(StaticFilesTests.secret))
            #expect(!text.contains("root:"))
        }
    }
}
