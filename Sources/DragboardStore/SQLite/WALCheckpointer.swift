import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies committed pages from the write-ahead log back into the database file on a connection of
/// its own, so that no commit waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages, on the
/// connection that committed. With GRDB's one writer, every write of the process queued behind it:
/// here some 70 pages written and two `fdatasync`s, about 3 ms, once every 50 or so drops, which
/// is what a drop's p99 measured. Instead:
/// - the writer's automatic checkpoint is off, and a WAL hook on it notes how long the log is after
///   each commit (a load and a compare; no system call);
/// - once 250 pages have been added since the last checkpoint, a `PASSIVE` checkpoint runs on
///   this connection, on GRDB's queue of its own, while commits go on. A quarter of SQLite's 1,000:
///   a checkpoint ends by syncing the database file, and a commit syncing the log meanwhile waits
///   on the same disk; smaller copies, more often, took the p99 of drops at 400/s from 5.4–7.6 ms
///   to 4.0–5.1 ms (alternating A/B, 7 rounds) for no measurable CPU;
/// - the log starts again from its beginning only once a checkpoint copied all of it before the
///   next write. Under a steady stream of commits that rarely happens (measured: 400 drops/s took
///   it to the limit), so once the log passes ``writerTakesOver`` pages the committing writer
///   copies what is left itself, as SQLite's own checkpoint would have: the log stays bounded, and
///   a commit pays for a checkpoint once per 8,000 pages instead of once per 1,000.
///
/// Durability is unchanged: a commit is acknowledged once the log is synced, as before; a
/// checkpoint syncs the log, then the database file (`synchronous=FULL` on this connection too).
final class WALCheckpointer: Sendable {
    /// Pages added to the log that start a checkpoint.
    let pages: Int32
    /// The log's length in pages past which the committing writer checkpoints itself.
    let writerTakesOver: Int32

    /// The checkpointer's own connection (a test holds it busy to stand for a slow disk).
    let connection: DatabaseQueue
    /// The log's length at the last commit, in pages.
    private let logged = Atomic<Int32>(0)
    /// Pages of the log copied, or asked to be, into the file.
    private let copiedThrough = Atomic<Int32>(0)
    private let isScheduled = Atomic<Bool>(false)
    private let done = Mutex(Counts())

    /// What the checkpointer has done (for tests and diagnostics).
    struct Counts: Sendable, Equatable {
        /// Checkpoints run on the checkpointer's own connection.
        var inBackground = 0
        /// Checkpoints the writer ran itself, the checkpointer having fallen behind.
        var byTheWriter = 0
    }

    /// Opens a connection of its own to the database at `path` (already in WAL mode).
    init(path: String, pages: Int32 = 250, writerTakesOver: Int32 = 8_000) throws {
        var configuration = Configuration()
        configuration.label = "BoardStore.checkpointer"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.pages = pages
        self.writerTakesOver = max(writerTakesOver, pages)
    }

    var counts: Counts { done.withLock { $0 } }

    /// The log's length at the last commit, in pages (it starts again from 1 after a checkpoint
    /// copied all of it).
    var logLength: Int32 { logged.load(ordering: .relaxed) }

    /// Turns the writer's automatic checkpoint off and hooks it to this checkpointer.
    ///
    /// The hook holds this object unretained: call ``uninstall(from:)`` on the same connection
    /// before letting it go.
    func install(on writer: Database) {
        // sqlite3_wal_hook replaces the automatic checkpoint's own hook (sqlite3_wal_autocheckpoint).
        sqlite3_wal_hook(writer.sqliteConnection, { context, db, _, frames in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            checkpointer.committed(frames: frames, on: db)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Takes the hook off the writer `writer`.
    func uninstall(from writer: Database) {
        sqlite3_wal_hook(writer.sqliteConnection, nil, nil)
    }

    /// After each commit, on the writer, which still holds the write lock: `frames` is the log's
    /// length in pages.
    private func committed(frames: Int32, on writer: OpaquePointer?) {
        logged.store(frames, ordering: .relaxed)
        var copied = copiedThrough.load(ordering: .relaxed)
        if frames < copied {  // the log started again from its beginning
            copied = 0
            copiedThrough.store(0, ordering: .relaxed)
        }
        if frames >= writerTakesOver {
            // Nothing else writes meanwhile, so this one copies everything and the next write
            // starts the log again.
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            copiedThrough.store(0, ordering: .relaxed)
            done.withLock { $0.byTheWriter += 1 }
        } else if frames - copied >= pages, !isScheduled.exchange(true, ordering: .acquiringAndReleasing) {
            // What it will copy at least, unless a reader still needs older pages (then it says).
            copiedThrough.store(frames, ordering: .relaxed)
            connection.asyncWriteWithoutTransaction { [self] db in checkpoint(db) }
        }
    }

    private func checkpoint(_ db: Database) {
        // Cleared first: commits made while this one copies may ask for the next.
        isScheduled.store(false, ordering: .releasing)
        var logged: Int32 = 0
        var copied: Int32 = 0
        let result = sqlite3_wal_checkpoint_v2(db.sqliteConnection, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
        guard result == SQLITE_OK || result == SQLITE_BUSY else { return }  // the next commit asks again
        copiedThrough.store(copied, ordering: .relaxed)
        done.withLock { $0.inBackground += 1 }
    }

    /// Waits for the checkpoint under way or asked for, if any, to end.
    func waitUntilIdle() {
        connection.writeWithoutTransaction { _ in }
    }
}
