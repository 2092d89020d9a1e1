@testable import DragboardStore
import Foundation
import GRDB
import Testing

/// The log is copied back into the database file on the checkpointer's own connection, never in a
/// commit, unless the checkpointer falls so far behind that the writer must (``WALCheckpointer``).
///
/// In WAL mode only a checkpoint writes the database file, so its size tells whether one ran.
@Suite struct WALCheckpointTests {
    /// A WAL database at a fresh path, its writer hooked to a checkpointer of `pages`.
    struct Fixture {
        let directory: URL
        let path: String
        let pool: DatabasePool
        let checkpointer: WALCheckpointer

        init(pages: Int32, writerTakesOver: Int32) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragboard-wal-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent("board.sqlite").path
            pool = try DatabasePool(path: path)
            try pool.write { try $0.execute(sql: "CREATE TABLE page (id INTEGER PRIMARY KEY, body BLOB)") }
            checkpointer = try WALCheckpointer(path: path, pages: pages, writerTakesOver: writerTakesOver)
            // Everything so far copied into the file, so that its size moves only with the checkpointer.
            try pool.writeWithoutTransaction { db in
                try db.checkpoint(.truncate)
                checkpointer.install(on: db)
            }
        }

        /// Commits one row of about a page at a time until the log holds at least `pages` pages.
        func write(untilTheLogHolds pages: Int) throws {
            while checkpointer.logLength < pages {
                try pool.write { try $0.execute(sql: "INSERT INTO page (body) VALUES (zeroblob(3000))") }
            }
        }

        var fileSize: Int { size(path) }
        var rows: Int { (try? pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM page") }) ?? -1 }

        private func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }

        func remove() {
            pool.writeWithoutTransaction { checkpointer.uninstall(from: $0) }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func theCheckpointerCopiesTheLogIntoTheFileOnceEnoughPagesWereAdded() throws {
        let f = try Fixture(pages: 20, writerTakesOver: 10_000)
        defer { f.remove() }
        let emptyFile = f.fileSize
        try f.write(untilTheLogHolds: 10)
        f.checkpointer.waitUntilIdle()
        #expect(f.checkpointer.counts == .init(inBackground: 0, byTheWriter: 0))  // not yet 20
        #expect(f.fileSize == emptyFile)

        // The commit that takes the log to 20 asks for one; nothing is written after it (a write after a
        // checkpoint that copied everything would start the log again, and reaching 20 again ask for another).
        try f.write(untilTheLogHolds: 20)
        f.checkpointer.waitUntilIdle()
        #expect(f.checkpointer.counts.inBackground == 1)
        #expect(f.checkpointer.counts.byTheWriter == 0)
        #expect(f.fileSize > emptyFile + 5 * 4096)  // the rows' pages (about one in three of the log's) are in the file now
    }

    @Test func commitsGoOnWhileTheCheckpointerIsBusyAndTheWriterTakesOverPastItsLimit() throws {
        let f = try Fixture(pages: 20, writerTakesOver: 1_500)
        defer { f.remove() }
        let emptyFile = f.fileSize
        // The checkpointer's connection is busy (a slow disk, say) until `busy` is signalled.
        let busy = DispatchSemaphore(value: 0)
        let occupied = DispatchSemaphore(value: 0)
        f.checkpointer.connection.asyncWriteWithoutTransaction { _ in
            occupied.signal()
            busy.wait()
        }
        occupied.wait()

        // Past SQLite's own automatic checkpoint (1,000 pages): nobody checkpoints, commits go on.
        try f.write(untilTheLogHolds: 1_200)
        #expect(f.fileSize == emptyFile)
        #expect(f.checkpointer.counts == .init(inBackground: 0, byTheWriter: 0))

        // Past the limit, the committing writer copies the log itself.
        try f.write(untilTheLogHolds: 1_500)
        #expect(f.checkpointer.counts.byTheWriter == 1)
        #expect(f.fileSize > emptyFile + 400 * 4096)
        // Having copied all of it, the next write starts the log again from its beginning.
        try f.pool.write { try $0.execute(sql: "INSERT INTO page (body) VALUES (zeroblob(3000))") }
        #expect(f.checkpointer.logLength < 10)

        // The checkpointer, free again, runs the checkpoint asked of it meanwhile; nothing is lost.
        busy.signal()
        f.checkpointer.waitUntilIdle()
        let rows = f.rows
        #expect(rows > 400)
        let reopened = try DatabaseQueue(path: f.path)
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM page") } == rows)
    }

    @Test func aStoreOnSQLiteLeavesItsCheckpointsToTheCheckpointer() throws {
        let t = try TempStore(engine: .sqlite)
        defer { t.remove() }
        let engine = try #require(t.store.engine as? SQLiteEngine)
        // Each rename commits a few pages; SQLite's own checkpoint would have run in one of these
        // commits (its default is 1,000 pages; the checkpointer's is 250).
        var moves = 0
        while engine.checkpointer.counts.inBackground == 0 && moves < 5_000 {
            _ = try t.op { tx in try tx.renameBoard("Board \(moves)") }
            moves += 1
            if moves % 50 == 0 { engine.checkpointer.waitUntilIdle() }
        }
        #expect(engine.checkpointer.counts.inBackground >= 1)
        #expect(engine.checkpointer.counts.byTheWriter == 0)
    }
}
