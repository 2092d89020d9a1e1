// The Swift yardstick of `make bench-peer` (issue #27, goal 1): a move of a row between lists written
// the plain way, as an app developer would with a Swift HTTP router and GRDB, so Dragboard's CPU per
// move can be read against it. The issue names Hummingbird + GRDB; until Hummingbird is approved, the
// router is MicroHTTP's (Dragboard's own HTTP layer on libmicrohttpd): what differs from Dragboard is
// then its engine, store and protocol, not the HTTP server.
//
// The same contract as Tests/bench/peer.c, its C twin (peer_bench.py and test_peer.py drive both):
// integer positions 0..n-1 in each list; a move is one GRDB write of one read (the row's list and
// position, and the target list's size) and ONE UPDATE; WAL with synchronous=FULL, so an acknowledged
// move is on disk; the board's version is a counter in memory, raised once per acknowledged move.
//
//     GRDBPeer seed DATABASE LISTS ROWS    a new board: lists list-1..list-LISTS of ROWS rows each,
//                                          the row at position n of list-k is named item-k-n
//     GRDBPeer PORT THREADS DATABASE       serves that board (one "Listening on" line; SIGTERM stops it):
//
//     POST /move  (form: item=ID&list=LIST&index=N) → 200 {"rows":R,"version":V}, 404 for an unknown
//                 row, 409 {"error":"index out of range","rows":R}, 400 for a malformed form
//     GET /list?list=LIST → 200 {"items":[ID...]} in position order
import Foundation
import GRDB
import Logging
import MicroHTTP
import Synchronization

/// The row's list and position, and the size of the list it goes to.
let readSQL = "SELECT list, position, (SELECT coalesce(max(position) + 1, 0) FROM item WHERE list = ?2) FROM item WHERE id = ?1"
/// ?1 the row, ?2 its new list, ?3 its new index; rows of list ?4 at ?5...?6 go up by one, of list ?7
/// at ?8...?9 down by one (peer.c's statement, word for word).
let updateSQL = """
    UPDATE item SET list = CASE WHEN id = ?1 THEN ?2 ELSE list END, \
    position = CASE WHEN id = ?1 THEN ?3 WHEN list = ?4 AND position BETWEEN ?5 AND ?6 THEN position - 1 \
    ELSE position + 1 END \
    WHERE id = ?1 OR (list = ?4 AND position BETWEEN ?5 AND ?6) OR (list = ?7 AND position BETWEEN ?8 AND ?9)
    """

/// Why a move was refused; nothing was written.
enum Refusal: Error {
    case noSuchItem
    case outOfRange(rows: Int)
}

struct Moved: Encodable { var version: Int; var rows: Int }
struct OutOfRange: Encodable { var error = "index out of range"; var rows: Int }
struct Items: Encodable { var items: [String] }

func openPool(_ path: String) throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    // GRDB's WAL set-up leaves its writer at synchronous=NORMAL: raise it, as Dragboard does.
    try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
    return pool
}

/// Moves `item` to `list` at `index` in one transaction: the number of rows the list holds then.
func move(_ item: String, to list: String, at index: Int, in db: Database) throws -> Int {
    guard let row = try Row.fetchOne(db.cachedStatement(sql: readSQL), arguments: [item, list]) else {
        throw Refusal.noSuchItem
    }
    let source: String = row[0], from: Int = row[1], size: Int = row[2]
    let same = source == list
    let others = same ? size - 1 : size  // the target's rows beside the moved one
    guard (0...others).contains(index) else { throw Refusal.outOfRange(rows: others) }
    let far = 1 << 62
    let (upHigh, downHigh) = same ? (index > from ? index : -1, index < from ? from - 1 : -2) : (far, far)
    try db.cachedStatement(sql: updateSQL).execute(arguments: [item, list, index, source, from + 1, upHigh, list, index, downHigh])
    return others + 1
}

func serve(port: Int, threads: Int, path: String) throws {
    let pool = try openPool(path)
    let version = Mutex(0)
    var router = Router()
    router.post("/move", bodyLimit: 512) { request in
        let form = try request.formFields()
        guard let item = form["item"], let list = form["list"], !item.isEmpty, !list.isEmpty,
              let index = form["index"].flatMap({ Int($0) }) else {
            throw HTTPError(.badRequest, code: "bad_request", message: "expected item, list and index")
        }
        do {
            let (rows, moved) = try pool.write { db in
                let rows = try move(item, to: list, at: index, in: db)
                // Raised in the writer, so versions follow the order of the moves.
                return (rows, version.withLock { $0 += 1; return $0 })
            }
            return .json(Moved(version: moved, rows: rows))
        } catch Refusal.noSuchItem {
            throw HTTPError(.notFound, code: "not_found", message: "no such item")
        } catch Refusal.outOfRange(let rows) {
            return .json(OutOfRange(rows: rows), status: .conflict)
        }
    }
    router.get("/list") { request in
        guard let list = request.query["list"] else {
            throw HTTPError(.badRequest, code: "bad_request", message: "expected list")
        }
        let items = try pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM item WHERE list = ? ORDER BY position", arguments: [list])
        }
        return .json(Items(items: items))
    }
    var logger = Logger(label: "peer")
    logger.logLevel = .error  // as the bench runs dragboard: no line per request
    let server = HTTPServer(configuration: .init(port: port, threadPoolSize: threads), router: router, logger: logger)
    try server.start()
    FileHandle.standardOutput.write(Data("Listening on http://127.0.0.1:\(server.port)\n".utf8))
    while true { pause() }  // until SIGTERM ends the process: every acknowledged move is already on disk
}

func seed(path: String, lists: Int, rows: Int) throws {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let pool = try openPool(path)
    try pool.write { db in
        try db.execute(sql: """
            CREATE TABLE item(id TEXT PRIMARY KEY, list TEXT NOT NULL, position INTEGER NOT NULL);
            CREATE INDEX item_place ON item(list, position)
            """)
        let insert = try db.makeStatement(sql: "INSERT INTO item(id, list, position) VALUES (?, ?, ?)")
        for k in 1...lists {
            for n in 0..<rows { try insert.execute(arguments: ["item-\(k)-\(n)", "list-\(k)", n]) }
        }
    }
    try pool.writeWithoutTransaction { try $0.execute(sql: "ANALYZE") }
}

let arguments = CommandLine.arguments
do {
    if arguments.count == 5, arguments[1] == "seed", let lists = Int(arguments[3]), let rows = Int(arguments[4]), lists > 0, rows >= 0 {
        try seed(path: arguments[2], lists: lists, rows: rows)
    } else if arguments.count == 4, let port = Int(arguments[1]), let threads = Int(arguments[2]), threads > 0 {
        try serve(port: port, threads: threads, path: arguments[3])
    } else {
        FileHandle.standardError.write(Data("usage: GRDBPeer PORT THREADS DATABASE | GRDBPeer seed DATABASE LISTS ROWS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("GRDBPeer: \(error)\n".utf8))
    exit(1)
}
