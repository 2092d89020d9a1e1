/// Errors of the store. A method that throws one has changed nothing, and a
/// throw out of an operation's body rolls back the whole operation.
public enum StoreError: Error, Sendable, Equatable {
    /// No board with this id.
    case unknownBoard(String)
    /// No list with this id (on the board in question).
    case unknownList(String)
    /// No item with this id.
    case unknownItem(String)
    /// A placement index outside `0...count` of the target's rows.
    case indexOutOfRange(Int, count: Int)
    /// Same operation id, different fingerprint.
    case operationReused(String)
    /// Stale view that cannot be rebased.
    case conflict(String)
    /// The database cannot be reached (a PostgreSQL server down or unreachable); nothing changed.
    case unavailable(String)
    /// Anything else the store refuses (duplicate ids, bad JSON, a container into itself…).
    case invalid(String)
}
