@testable import DragboardStore
import Foundation
import GRDB
import MicroHTTP
import Testing
@testable import Dragboard
@testable import DragboardHTTP

/// Property tests over the request decoding and the session and drop paths: many random
/// requests from the API's grammar, many of them mutated, sent in process through the real router
/// to a board on a real SQLite file, with the board's invariants checked after every one.
///
/// `make test` runs a quick, bounded version; `make fuzz` runs it for minutes. A failure prints the
/// seed; `FUZZ_SEED=<seed> FUZZ_ITERATIONS=<n>` replays the run (see ``FuzzBudget``).
@Suite struct FuzzTests {
    @Test func randomRequestsNeverBreakTheBoard() async throws {
        let budget = FuzzBudget.fromEnvironment()
        let avoided = budget.includeKnown ? [] : Set(KnownDefect.allCases)
        FileHandle.standardError.write(Data("fuzz: \(budget.summary); replay with FUZZ_SEED=\(budget.seed)\n".utf8))
        CrashNote.install()
        defer { CrashNote.uninstall() }

        var generator = FuzzGenerator(seed: budget.seed, avoided: avoided)
        var report = FuzzReport(seed: budget.seed, known: avoided)
        let clock = ContinuousClock()
        let started = clock.now
        var iteration = 0
        while budget.allows(iteration, elapsed: clock.now - started) {
            // A fresh board now and then: short histories make short reproducers.
            let board = try await TestBoard()
            var checker = try FuzzChecker(board: board, epochStart: iteration)
            try generator.start(on: board.store)
            let epochEnd = iteration + generator.rng.int(200...1500)
            while iteration < epochEnd, budget.allows(iteration, elapsed: clock.now - started) {
                let request = generator.next()
                let history = checker.history(of: request)
                CrashNote.set("seed \(budget.seed), iteration \(iteration)\n\(history)")
                let (response, violations) = try checker.run(request)
                if budget.verbose {
                    print("fuzz \(iteration): \(request.description)\n  ← \(response.status.code) \(String(decoding: TestBoard.bytes(response).prefix(300), as: UTF8.self))")
                }
                report.count(request, response)
                for violation in violations { report.record(violation, request: request, iteration: iteration, history: history, checker: checker) }
                generator.learn(request, status: response.status.code, json: TestBoard.json(response))
                if checker.boardChanged { try generator.refresh(board.store) }
                iteration += 1
            }
            try? FileManager.default.removeItem(at: board.directory)
        }
        report.finish(iterations: iteration, elapsed: clock.now - started)
        for failure in report.unexplained {
            Issue.record("\(failure.signature): \(failure.message)\n\(failure.reproducer)\nreplay: FUZZ_SEED=\(budget.seed) FUZZ_ITERATIONS=\(failure.iteration + 1)")
        }
    }
}

extension TestBoard {
    static func bytes(_ response: Response) -> [UInt8] {
        if case .bytes(let bytes) = response.body { bytes } else { [] }
    }
}

/// One broken invariant. The signature groups repeats (route and kind); the message has the details.
struct FuzzViolation {
    var signature: String
    var message: String
}

/// Runs requests against one board and checks, after each, the status and error shape of the
/// answer and the board's invariants as the store holds them.
struct FuzzChecker {
    let board: TestBoard
    let epochStart: Int
    private(set) var facts: BoardFacts
    private var ids: Set<String>
    /// Response bodies of drops answered 200, by operation id.
    private var acknowledged: [String: [UInt8]] = [:]
    /// The versions of acknowledged drops that changed the board.
    private var changeVersions: Set<Int> = []
    /// Requests of this board, per session token (for reproducers), and the latest ones.
    private var bySession: [String: [String]] = [:]
    private var recent: [String] = []
    private(set) var boardChanged = false

    init(board: TestBoard, epochStart: Int) throws {
        self.board = board
        self.epochStart = epochStart
        facts = try BoardFacts.read(board.store)
        ids = try BoardFacts.itemIDs(board.store)
    }

    /// The requests that led here in this session, then this one: what a reproducer needs.
    func history(of request: FuzzRequest) -> String {
        let earlier = request.token.flatMap { bySession[$0] } ?? []
        return (earlier.suffix(12) + ["→ " + request.description]).joined(separator: "\n")
    }

    var context: String { "board of iteration \(epochStart); last requests:\n" + recent.suffix(4).joined(separator: "\n") }

    mutating func run(_ request: FuzzRequest) throws -> (Response, [FuzzViolation]) {
        let response = board.router.respond(to: request.request)
        let after = try BoardFacts.read(board.store)
        let route = Self.route(of: request)
        var violations: [FuzzViolation] = []
        func fail(_ kind: String, _ message: String) { violations.append(FuzzViolation(signature: "\(route): \(kind)", message: message)) }

        let status = response.status.code
        let bytes = TestBoard.bytes(response)
        let json = TestBoard.json(response)
        if status >= 500 { fail("5xx", "answered \(status): \(String(decoding: bytes.prefix(300), as: UTF8.self))") }
        // (A browser's plain form may get a page instead: the server turns JSON errors into pages for it.)
        if status >= 400, request.method != .head, request.headers["Accept"] != "text/html", let problem = Self.errorShapeProblem(response, json) {
            fail("error-not-json", problem)
        }
        // Text never holds NUL in the store, so an answer that shows one shows what is not stored.
        if (200..<300).contains(status), bytes.count < 1_000_000, String(decoding: bytes, as: UTF8.self).contains("\\u0000") {
            fail("answer-holds-nul", String(decoding: bytes.prefix(300), as: UTF8.self))
        }

        if after.version < facts.version { fail("version-decreased", "\(facts.version) → \(after.version)") }
        if after.version > facts.version + 1 { fail("version-jumped", "\(facts.version) → \(after.version)") }
        if after.itemCount < facts.itemCount { fail("items-lost", "\(facts.itemCount) → \(after.itemCount) items") }
        if after.itemCount > facts.itemCount, after.version == facts.version { fail("items-added-without-version", "\(facts.itemCount) → \(after.itemCount) items at version \(after.version)") }
        for problem in try BoardFacts.structuralViolations(board.store) { fail("structure", problem) }
        boardChanged = after != facts
        if boardChanged {
            let now = try BoardFacts.itemIDs(board.store)
            let lost = ids.subtracting(now)
            if !lost.isEmpty { fail("items-lost", "items \(lost.sorted().prefix(3)) disappeared") }
            ids = now
        }

        let version = json["version"] as? Int
        if route == "drop", status == 200 {
            let changes = json["changes"] as? [Any] ?? []
            let op = (try? JSONDecoder().decode(BoardAPI.DropRequest.self, from: Data(request.body)))?.op
            if let op, let stored = acknowledged[op] {
                // The record keeps the answer; its rows' HTML is rendered as they are now.
                if Self.withoutHTML(stored) != Self.withoutHTML(bytes) {
                    fail("replay-differs", "op \(op) answered \(String(decoding: bytes.prefix(200), as: UTF8.self)) after \(String(decoding: stored.prefix(200), as: UTF8.self))")
                }
                if after.version != facts.version { fail("replay-changed-board", "op \(op) moved the version \(facts.version) → \(after.version)") }
            } else {
                // Only a drop that changed the board is remembered; one that did not runs again.
                if let op, !changes.isEmpty { acknowledged[op] = bytes }
                var phantom = false
                if changes.isEmpty {
                    if after.version != facts.version { fail("changed-silently", "no changes answered, version \(facts.version) → \(after.version)") }
                } else if after.version != facts.version + 1 {
                    // Nothing in the store changed (no row carries a newer version) yet the answer
                    // announces a new version: a phantom. Rows that did change are another defect.
                    let stamped = try board.store.dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE changedVersion > ?", arguments: [after.version]) ?? 0 }
                    phantom = stamped == 0 && after.version == facts.version && version == facts.version + 1
                    fail(phantom ? "phantom-version" : "changed-without-new-version",
                         "answered \(changes.count) changes at version \(version.map(String.init) ?? "nil"), the store stayed at \(after.version)"
                            + (phantom ? " and nothing in it changed" : " with \(stamped) rows stamped with a later version"))
                }
                for problem in try Self.answerProblems(changes, store: board.store) { fail("answer-differs-from-store", problem) }
                if phantom {
                    // Reported above; the next real change will legitimately take that version.
                } else if version != after.version {
                    fail("version-not-on-board", "answered version \(version.map(String.init) ?? "nil"), the store is at \(after.version)")
                } else if !changes.isEmpty, let version {
                    if !changeVersions.insert(version).inserted { fail("duplicate-version", "a second change acknowledged as version \(version)") }
                }
            }
        } else if route == "edit", status < 400 {
            // A form that was taken may change the board by one version (checked above); nothing else to hold it to.
        } else {
            if after.version != facts.version { fail("changed-board", "answered \(status) and moved the version \(facts.version) → \(after.version)") }
            if (200..<300).contains(status), request.method == .get || request.method == .post, ["begin", "external", "join", "board"].contains(route),
               version != after.version {
                fail("version-not-on-board", "answered version \(version.map(String.init) ?? "nil"), the store is at \(after.version)")
            }
            // An end answers the version its session last knew (its start, or its drop): one the board had.
            if (200..<300).contains(status), route == "end", !(version.map { 0...after.version ~= $0 } ?? false) {
                fail("version-not-on-board", "an end answered version \(version.map(String.init) ?? "nil"), the store is at \(after.version)")
            }
        }
        facts = after
        if let token = request.token { bySession[token, default: []].append(request.description) }
        recent.append(request.description)
        if recent.count > 8 { recent.removeFirst() }
        return (response, violations)
    }

    /// Where a drop's answer (which every viewer also receives) says something other than what
    /// the store holds: an inserted row that is not there, not after the row it names, or with
    /// another title; a removed row that no longer exists (moves never delete); a replaced box that is gone.
    static func answerProblems(_ changes: [Any], store: BoardStore) throws -> [String] {
        var problems: [String] = []
        for case let change as [String: Any] in changes {
            guard let kind = change["kind"] as? String, let id = change["item"] as? String else { problems.append("change \(change) has no kind or item"); continue }
            let stored = try store.dbPool.read { try StoreQueries.item(SQLiteConnection($0), id) }
            switch kind {
            case "insert":
                guard let stored else { problems.append("inserted \(BoardFacts.show(id)) is not in the store"); continue }
                let list = change["list"] as? String
                if stored.listID != list || stored.containerID != nil {
                    problems.append("inserted \(BoardFacts.show(id)) into \(list ?? "-"), the store has it in \(stored.listID)/\(stored.containerID ?? "-")")
                }
                let rows = try store.rows(in: stored.listID).map(\.id)
                let predecessor = rows.firstIndex(of: id).flatMap { $0 > 0 ? rows[$0 - 1] : nil }
                if predecessor != change["after"] as? String {
                    problems.append("inserted \(BoardFacts.show(id)) after \((change["after"] as? String).map(BoardFacts.show) ?? "nothing"), the store has it after \(predecessor.map(BoardFacts.show) ?? "nothing")")
                }
                if let html = change["html"] as? String, let shown = Self.title(inRow: html), shown != stored.title {
                    problems.append("inserted \(BoardFacts.show(id)) titled \(BoardFacts.show(shown)), the store titles it \(BoardFacts.show(stored.title))")
                }
            case "remove", "replace":
                if stored == nil { problems.append("\(kind) of \(BoardFacts.show(id)), which is not in the store") }
            default: break
            }
        }
        return problems
    }

    /// The title a rendered row shows, unescaped.
    static func title(inRow html: String) -> String? {
        guard let start = html.range(of: "class=\"title\">"), let end = html[start.upperBound...].range(of: "</span>") else { return nil }
        var text = String(html[start.upperBound..<end.lowerBound])
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&#x2F;", "/"), ("&#x3D;", "="), ("&#x60;", "`"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// The route a request reaches, from its method and path (whatever it was generated as).
    /// An answer with every change's `html` removed, as a comparable JSON value.
    static func withoutHTML(_ bytes: [UInt8]) -> NSDictionary {
        guard var answer = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return [:] }
        answer["changes"] = (answer["changes"] as? [[String: Any]])?.map { $0.filter { $0.key != "html" } }
        return answer as NSDictionary
    }

    static func route(of request: FuzzRequest) -> String {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (request.method, parts.count, parts.count > 2 ? parts[1] + "/" + parts[2] : "") {
        case (.post, 3, "api/sessions"): return "begin"
        case (.post, 4, "api/sessions") where parts[3] == "external": return "external"
        case (.post, 5, "api/sessions") where ["join", "files", "target", "drop", "end"].contains(parts[4]): return parts[4]
        case (_, 3, "api/board"): return "board"
        case (_, 2, _) where parts[1] == "": return "page"
        case (_, 2, _) where parts[1] == "events": return "events"
        case (_, 3, _) where parts[1] == "images": return "images"
        default: return request.kind == "edit" ? "edit" : "other"
        }
    }

    /// What is wrong with an error answer, if anything: every 4xx is `{"error": {"code", "message"}}`.
    static func errorShapeProblem(_ response: Response, _ json: [String: Any]) -> String? {
        guard response.headers["Content-Type"]?.hasPrefix("application/json") == true else { return "Content-Type \(response.headers["Content-Type"] ?? "none")" }
        guard json.count == 1, let error = json["error"] as? [String: Any] else { return "body \(json)" }
        guard let code = error["code"] as? String, !code.isEmpty, let message = error["message"] as? String, !message.isEmpty else { return "error \(error)" }
        return nil
    }
}

/// Figures of a run and the first occurrence of each violation.
struct FuzzReport {
    struct Failure {
        var signature: String
        var message: String
        var iteration: Int
        var reproducer: String
        var count: Int
        var known: KnownDefect?
    }

    let seed: UInt64
    let known: Set<KnownDefect>
    var statuses: [String: [Int: Int]] = [:]
    var mutated = 0
    var failures: [String: Failure] = [:]
    /// Uploads named by drops that answered 500 (a file may be gone since).
    var spoiledUploads: Set<String> = []

    mutating func count(_ request: FuzzRequest, _ response: Response) {
        let route = FuzzChecker.route(of: request) + (request.fromOutside ? " from outside" : "")
        statuses[route, default: [:]][response.status.code, default: 0] += 1
        if !request.mutation.isEmpty { mutated += 1 }
    }

    mutating func record(_ violation: FuzzViolation, request: FuzzRequest, iteration: Int, history: String, checker: FuzzChecker) {
        // Grouped by signature and by the known defect that explains it: a new cause of the same
        // symptom (another 500 on drops) is reported on its own.
        let explained = known.first { $0.explains(violation.signature, request, spoiledUploads: spoiledUploads) }
        if violation.signature == "drop: 5xx" {
            spoiledUploads.formUnion((try? JSONDecoder().decode(BoardAPI.DropRequest.self, from: Data(request.body)))?.files?.compactMap { $0 } ?? [])
        }
        let key = violation.signature + " | " + (explained?.rawValue ?? "new")
        if failures[key] != nil {
            failures[key]?.count += 1
            return
        }
        failures[key] = Failure(signature: violation.signature, message: violation.message, iteration: iteration,
                                                reproducer: history + "\n(" + checker.context + ")", count: 1, known: explained)
    }

    var unexplained: [Failure] { failures.values.filter { $0.known == nil }.sorted { $0.iteration < $1.iteration } }

    func finish(iterations: Int, elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var lines = ["fuzz: seed \(seed): \(iterations) executions in \(String(format: "%.1f", seconds)) s "
                     + "(\(String(format: "%.0f", Double(iterations) / max(seconds, 0.001))) exec/s), \(mutated) mutated"]
        for (route, counts) in statuses.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(route): " + counts.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
        }
        lines.append("fuzz: \(failures.count) kinds of violation (\(unexplained.count) unexplained)")
        for failure in failures.values.sorted(by: { $0.iteration < $1.iteration }) {
            lines.append("  [\(failure.known.map { "KNOWN \($0.rawValue)" } ?? "NEW")] \(failure.signature) ×\(failure.count), first at iteration \(failure.iteration): \(failure.message)")
            lines.append(failure.reproducer.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        }
        print(lines.joined(separator: "\n"))
    }
}
