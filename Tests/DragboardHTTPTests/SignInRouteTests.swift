import Dragboard
import DragboardTesting
import Foundation
import Logging
import MicroHTTP
import Showcase
import Testing

@testable import DragboardHTTP
@testable import DragboardStore

/// Sign-in, sign-out and sessions, through the routes a browser uses.
@Suite struct SignInRouteTests {
    @Test func withoutAccountsEveryoneIsServedAsBefore() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        #expect(board.request(.get, "/boards/demo").status == .ok)
        #expect(board.request(.get, "/api/board").status == .ok)
        #expect(TestBoard.text(board.request(.get, "/")).contains("data-board-link=\"demo\""))
        #expect(!TestBoard.text(board.request(.get, "/")).contains("data-who"))
    }

    @Test func onceAnAccountExistsAnonymousPagesGoToSignInAndTheRestGet401() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let page = board.request(.get, "/boards/demo", headers: ["Accept": "text/html"])
        #expect(page.status == .seeOther)
        #expect(page.headers["Location"] == "/login?next=/boards/demo")
        let api = board.request(.get, "/api/board")
        #expect(api.status == .unauthorized)
        #expect(TestBoard.json(api)["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "sign_in_required")
        #expect(board.request(.get, "/login").status == .ok)
        let withQuery = board.router.respond(to: Request(method: .get, path: "/boards/demo", query: ["list": "a b"], headers: ["Accept": "text/html"]))
        #expect(withQuery.headers["Location"] == "/login?next=/boards/demo%3Flist%3Da%2520b")
    }

    @Test func signingInSetsAFreshHttpOnlyLaxCookieAndGoesToNext() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", password: "correct horse", admin: true)
        var tokens: Set<String> = []
        for _ in 0..<2 {
            let answer = try board.app.postForm("/login", ["username": "ALICE", "password": "correct horse", "next": "/boards/demo?x=1"])
            #expect(answer.status == 303)
            #expect(answer.header("Location") == "/boards/demo?x=1")
            let cookie = try #require(answer.header("Set-Cookie"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/") && !cookie.contains("Secure"))
            let token = String(cookie.split(separator: ";")[0].dropFirst("dragboard_session=".count))
            #expect(token.count == 64)
            tokens.insert(token)
            // The database keeps a digest, never the token.
            let kept = try board.store.engine.read { try $0.fetchAll(String.self, sql: "SELECT digest FROM signIn") }
            #expect(!kept.contains(token) && kept.contains(BoardStore.signInDigest(token)))
        }
        #expect(tokens.count == 2)
    }

    @Test func nextOutsideThisServerGoesHome() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        for next in ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "", "/a\r\nSet-Cookie: x=1"] {
            let answer = try board.app.postForm("/login", ["username": "alice", "password": "password-of-a-test", "next": next])
            #expect(answer.header("Location") == "/", "next \(next)")
        }
    }

    @Test func aWrongNameAndAWrongPasswordGetTheSameAnswer() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let wrongPassword = try board.app.postForm("/login", ["username": "alice", "password": "not it at all"])
        let wrongName = try board.app.postForm("/login", ["username": "nobody", "password": "not it at all"])
        #expect(wrongPassword.status == 401 && wrongName.status == 401)
        #expect(wrongPassword.text.contains("Wrong user name or password.") && wrongName.text.contains("Wrong user name or password."))
        #expect(wrongPassword.header("Set-Cookie") == nil)
        #expect(!wrongPassword.text.contains("not it at all"))
    }

    @Test func tooManyFailuresForOneNameAnswer429WithRetryAfterButOthersStillSignIn() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob")
        for _ in 0..<5 {
            #expect(try board.app.postForm("/login", ["username": "alice", "password": "wrong password"]).status == 401)
        }
        let limited = try board.app.postForm("/login", ["username": "alice", "password": "password-of-a-test"])
        #expect(limited.status == 429)
        let retry = try #require(limited.header("Retry-After").flatMap(Int.init))
        #expect(retry > 800 && retry <= 900)
        #expect(limited.text.contains("Try again in 15 minutes"))
        #expect(try board.app.postForm("/login", ["username": "bob", "password": "password-of-a-test"]).status == 303)
    }

    @Test func signingOutEndsTheSessionAndItsCookie() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let alice = try board.app.signIn("alice")
        #expect(try alice.get("/api/board").status == 200)
        let out = try alice.postForm("/logout", [:])
        #expect(out.status == 303 && out.header("Location") == "/login")
        #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try alice.get("/api/board").status == 401)
    }

    @Test func writesNeedTheTokenBoundToTheSignIn() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let alice = try board.app.signIn("alice")
        let lists = try board.service.store.read(board: "demo") { try $0.lists() }
        let answer = try alice.postForm("/boards/demo/lists/\(lists[0].id)/rename", ["title": "Renamed", "csrf": board.app.csrf])
        #expect(answer.status == 403)
        #expect(try alice.postForm("/boards/demo/lists/\(lists[0].id)/rename", ["title": "Renamed"]).status == 303)
    }

    @Test func removingAnAccountOrSettingItsPasswordEndsItsSignInsAtOnce() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob", admin: true)
        let alice = try board.app.signIn("alice"), bob = try board.app.signIn("bob")
        #expect(try board.store.setPasswordHash("$argon2id$whatever", forAccountNamed: "alice"))
        #expect(try alice.get("/api/board").status == 401)
        #expect(try board.store.removeAccount(named: "BOB"))
        #expect(try bob.get("/api/board").status == 401)
    }

    @Test func anIdleSignInExpires() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let alice = try board.app.signIn("alice")
        try board.store.engine.write { try $0.execute(sql: "UPDATE signIn SET lastSeen = lastSeen - ?", arguments: [31.0 * 86_400]) }
        // The server remembers each sign-in's last use as it read or wrote it; aged behind its
        // back, it is told its memory is old, as any change to who may do what would.
        board.store.engine.accessWatch?.changed()
        #expect(try alice.get("/api/board").status == 401)
        #expect(try board.store.engine.read { try $0.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM signIn") } == 0)
    }

    @Test func theIndexAndPagesShowWhoIsSignedIn() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let alice = try board.app.signIn("alice")
        #expect(try alice.get("/").text.contains(#"data-who="alice""#))
        let page = try alice.get("/boards/demo").text
        #expect(page.contains(#"data-who="alice""#))
        #expect(page.contains(#"href="/boards/demo/members""#))
        #expect(page.contains(#"<meta name="csrf-token" content="\#(alice.csrf)">"#))
    }
}

/// The CLI acting on the database of a server that runs: its changes take effect at once.
@Suite struct UsersCommandWhileServingTests {
    @Test func removingAnAccountFromTheCommandLineSignsItOutOfTheRunningServer() async throws {
        let board = try await TestBoard()
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        try board.app.addAccount("bob", admin: true)
        let alice = try board.app.signIn("alice")
        #expect(try alice.get("/api/board").status == 200)
        let database = board.directory.appendingPathComponent("board.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("dragboard")
        process.arguments = ["users", "remove", "alice", "--database", database]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try alice.get("/api/board").status == 401)
    }
}

/// Where a server with no account may serve.
@Suite struct OpenServerTests {
    @Test func aServerOnAnotherAddressWithNoAccountRefusesToStartAndSaysHowToAddOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = DragboardApp.Options()
        options.host = "0.0.0.0"
        options.port = 0
        options.databasePath = directory.appendingPathComponent("board.sqlite").path
        options.publicDirectory = TestBoard.root.appendingPathComponent("Public").path
        options.templatesDirectory = TestBoard.root.appendingPathComponent("Templates").path
        do {
            _ = try await DragboardApp(kit: Showcase.kit, options: options, logger: .init(label: "test"))
            Issue.record("the server started with no account on 0.0.0.0")
        } catch let error as DragboardError {
            #expect(error.description.contains("dragboard users add"))
        }
        // With an account it starts, and serves no one who has not signed in.
        let store = try BoardStore(path: options.databasePath)
        try store.addAccount(name: "alice", passwordHash: "$argon2id$x")
        let app = try await DragboardApp(kit: Showcase.kit, options: options, logger: .init(label: "test"))
        var router = Router()
        app.service.addRoutes(to: &router)
        #expect(router.respond(to: Request(method: .get, path: "/api/board")).status == .unauthorized)
        // Were every account removed while it runs, it would serve no one rather than everyone: once it
        // has seen an account, it asks for a sign-in until it starts again.
        try store.removeAccount(named: "alice")
        #expect(router.respond(to: Request(method: .get, path: "/api/board")).status == .unauthorized)
    }

    @Test func theSignInCookieIsSecureWhenThePolicySaysSo() async throws {
        var policy = SignInPolicy()
        policy.secureCookies = true
        policy.sessionDays = 7
        let board = try await TestBoard(signIn: policy)
        defer { board.remove() }
        try board.app.addAccount("alice", admin: true)
        let answer = try board.app.postForm("/login", ["username": "alice", "password": "password-of-a-test"])
        #expect(answer.header("Set-Cookie")?.hasSuffix("Max-Age=604800; Secure") == true)
    }
}
