import GRDB
import Synchronization

/// Changes to who may do what on a SQLite database, told to every process that opens it.
///
/// Temporary triggers on the writer's connection fire on the same tables and events as
/// PostgreSQL's `dragboard_access_changed` triggers (accounts; sign-ins ended; memberships; boards
/// made, deleted or renamed) and note that the transaction changed access. Once the write is over,
/// the engine raises the ``AccessSignal``: every server on the file (this one included) sees its
/// count move and forgets what it remembered (``AccessWatch``). Raising it after a rollback too
/// costs a few reads, never a stale answer.
///
/// Every process opens the file through ``SQLiteEngine``, so `dragboard users` tells a running
/// server of each account it adds or removes. A tool that writes the file otherwise (the `sqlite3`
/// shell) tells nobody: the server sees its changes at the next change it hears of, or restart.
final class AccessChanges: Sendable {
    let signal: AccessSignal
    let watch: AccessWatch
    /// Whether the write under way changed access (set by the triggers' function).
    private let pending = Atomic<Bool>(false)

    static let function = "dragboard_access_changed"

    /// Name, event and table of each trigger.
    static let triggers = [
        ("account_inserted", "INSERT", "account"), ("account_updated", "UPDATE", "account"),
        ("account_deleted", "DELETE", "account"), ("signin_ended", "DELETE", "signIn"),
        ("member_inserted", "INSERT", "member"), ("member_updated", "UPDATE", "member"),
        ("member_deleted", "DELETE", "member"), ("board_inserted", "INSERT", "board"),
        ("board_deleted", "DELETE", "board"), ("board_renamed", "UPDATE OF title", "board"),
    ]

    init(beside databasePath: String) throws {
        signal = try AccessSignal(beside: databasePath)
        watch = AccessWatch(heeding: signal)
    }

    /// Puts the triggers on the writer's connection `db` (temporary: they live with the connection,
    /// and a process without the function, the `sqlite3` shell say, can still write the file).
    func install(on db: Database) throws {
        db.add(function: DatabaseFunction(Self.function, argumentCount: 0, pure: false) { [self] _ in
            pending.store(true, ordering: .relaxed)
            return nil
        })
        for (name, event, table) in Self.triggers {
            try db.execute(sql: "CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.\(table) BEGIN SELECT \(Self.function)(); END")
        }
    }

    /// After each write transaction (committed or not), while it still holds the writer: tells
    /// everyone if it changed access. (Called after the writer was handed on, it could take the
    /// next write's note before that write committed, and leave the next write untold.)
    func writeEnded() {
        if pending.exchange(false, ordering: .relaxed) { signal.raise() }
    }
}
