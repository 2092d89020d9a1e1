@testable import DragboardStore
import Foundation
import GRDB
import MicroHTTP
#if canImport(Glibc)
import Glibc
#endif
@testable import Dragboard
@testable import DragboardHTTP

/// SplitMix64: small, fast, and the same sequence on every machine for a seed, so a failing
/// run is replayed with `FUZZ_SEED`.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
    mutating func pick<T>(_ choices: T...) -> T { pick(choices) }
}

/// How long a fuzz run lasts, from the environment: `FUZZ_SECONDS` (wall clock) or
/// `FUZZ_ITERATIONS` (requests), `FUZZ_SEED` to replay, `FUZZ_INCLUDE_KNOWN=1` to generate the
/// inputs of known, unfixed defects too, `FUZZ_VERBOSE=1` to print every request.
struct FuzzBudget {
    /// Requests of the quick run in `make test` (a few seconds in a debug build).
    static let defaultIterations = 3_000

    var iterations: Int?
    var seconds: Double?
    var seed: UInt64
    var includeKnown: Bool
    var verbose: Bool

    static func fromEnvironment() -> FuzzBudget {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["FUZZ_SECONDS"].flatMap(Double.init)
        let iterations = environment["FUZZ_ITERATIONS"].flatMap(Int.init) ?? (seconds == nil ? defaultIterations : nil)
        var system = SystemRandomNumberGenerator()
        let seed = environment["FUZZ_SEED"].flatMap { UInt64($0) } ?? system.next() >> 1
        return FuzzBudget(iterations: iterations, seconds: seconds, seed: seed,
                          includeKnown: environment["FUZZ_INCLUDE_KNOWN"] == "1", verbose: environment["FUZZ_VERBOSE"] == "1")
    }

    func allows(_ iteration: Int, elapsed: Duration) -> Bool {
        if let iterations, iteration >= iterations { return false }
        if let seconds, elapsed >= .milliseconds(Int64(seconds * 1000)) { return false }
        return true
    }

    var summary: String {
        "seed \(seed)" + (iterations.map { ", \($0) iterations" } ?? "") + (seconds.map { ", \($0) s" } ?? "")
    }
}

/// A JSON document as the generator builds it: valid JSON by default, with `raw` for what no
/// encoder writes (lone surrogate escapes, numbers beyond Int64 or Double, broken fragments).
indirect enum JSONValue: Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case raw(String)

    var text: String {
        switch self {
        case .object(let fields): "{" + fields.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
        case .string(let string): Self.quoted(string)
        case .int(let value): String(value)
        case .double(let value): "\(value)"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .raw(let text): text
        }
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// One generated request, and what the checks need to know about it.
struct FuzzRequest {
    /// The route it aims at (`begin`, `drop`, …) whatever was mutated: for statistics and signatures.
    var kind: String
    var method: HTTPMethod
    var path: String
    var headers: HTTPHeaders
    var body: [UInt8]
    /// The live session it addresses, if any.
    var token: String?
    /// A drop's operation id, when the body still parses as a drop with one.
    var op: String?
    /// What was done to it beyond the grammar ("" for a well-formed request).
    var mutation: String = ""
    /// A drop of a session that began outside the page (for the statistics).
    var fromOutside = false

    var request: Request { Request(method: method, path: path, headers: headers, body: body) }

    /// A replayable description: method, path, the headers that matter, the body as a JSON string.
    var description: String {
        let shownHeaders = headers.filter { !FuzzGenerator.writeHeaders.contains(where: { [name = $0.name, value = $0.value] in $0.name == name && $0.value == value }) || $0.name == "Content-Type" }
            .map { "\($0.name): \($0.value)" }.joined(separator: "; ")
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let more = body.count > 4096 ? " …(\(body.count) bytes in all)" : ""
        let shownPath = path.count > 120 ? path.prefix(120) + "…(\(path.count) characters)" : path
        return "\(method) \(shownPath) [\(kind)\(mutation.isEmpty ? "" : ", " + mutation)] {\(shownHeaders)} body=\(JSONValue.quoted(text))\(more)"
    }
}

/// What the checks read from the store around each request.
struct BoardFacts: Equatable {
    var version: Int
    var itemCount: Int

    static func read(_ store: BoardStore) throws -> BoardFacts {
        try store.dbPool.read { db in
            BoardFacts(version: try StoreQueries.version(SQLiteConnection(db), board: BoardStore.defaultBoardID), itemCount: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0)
        }
    }

    /// The board's structural invariants, as violations (empty when all hold): every item in an
    /// existing list, every container an item of the same list, no duplicate ids, no two rows with
    /// the same order key in one list or container, no container cycle.
    static func structuralViolations(_ store: BoardStore) throws -> [String] {
        try store.dbPool.read { db in
            var found: [String] = []
            func each(_ sql: String, _ describe: (Row) -> String) throws {
                found += try Row.fetchAll(db, sql: sql).prefix(3).map(describe)
            }
            try each("SELECT id, listID FROM item WHERE listID NOT IN (SELECT id FROM list)") {
                "item \(Self.show($0[0])) is in list \(Self.show($0[1])), which does not exist"
            }
            try each("""
                SELECT i.id, i.containerID FROM item i LEFT JOIN item c ON c.id = i.containerID
                WHERE i.containerID IS NOT NULL AND (c.id IS NULL OR c.listID != i.listID)
                """) { "item \(Self.show($0[0])) is in container \(Self.show($0[1])), missing or in another list" }
            try each("SELECT id, COUNT(*) FROM item GROUP BY id HAVING COUNT(*) > 1") {
                "item id \(Self.show($0[0])) appears \($0[1] as Int) times"
            }
            try each("""
                SELECT listID, containerID, pos, COUNT(*) FROM item GROUP BY listID, containerID, pos HAVING COUNT(*) > 1
                """) { "\($0[3] as Int) rows of \(Self.show($0[0]))/\(Self.show($0[1] as String? ?? "-")) share the order key \(Self.show($0[2]))" }
            try each("""
                WITH RECURSIVE up(id, ancestor, depth) AS (
                    SELECT id, containerID, 1 FROM item WHERE containerID IS NOT NULL
                    UNION ALL SELECT up.id, item.containerID, up.depth + 1 FROM up JOIN item ON item.id = up.ancestor
                    WHERE item.containerID IS NOT NULL AND up.depth < 64
                ) SELECT DISTINCT id FROM up WHERE ancestor = id OR depth >= 64
                """) { "item \(Self.show($0[0])) is inside itself" }
            return found
        }
    }

    /// Every item id (to check that none is ever lost: the API deletes nothing).
    static func itemIDs(_ store: BoardStore) throws -> Set<String> {
        try store.dbPool.read { db in Set(try String.fetchAll(db, sql: "SELECT id FROM item")) }
    }

    static func show(_ value: String) -> String { JSONValue.quoted(value) }
}

/// What the process was doing when it trapped: the fuzzer writes the current request into a
/// fixed buffer before running it, and a handler of the fatal signals prints it — a trap cannot
/// be caught, but it can say which input caused it.
enum CrashNote {
    private static let capacity = 16 * 1024
    nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0
    private static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs the handlers (the default action follows: the process still dies with its signal).
    static func install() {
        for number in signals {
            signal(number) { number in
                _ = write(2, CrashNote.buffer, CrashNote.length)
                signal(number, SIG_DFL)   // returning re-runs the faulting instruction: it dies as it would have
            }
        }
    }

    static func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
        length = 0
    }

    /// The text printed if the process traps before the next call.
    static func set(_ text: String) {
        let bytes = Array("\n\n*** FUZZ CRASH — the process trapped on this input:\n\(text)\n\n".utf8.prefix(capacity))
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        length = bytes.count
    }
}

/// The SQLite engine's connection pool, for tests that read the file directly.
extension BoardStore {
    var dbPool: DatabasePool { (engine as! SQLiteEngine).dbPool }
}
