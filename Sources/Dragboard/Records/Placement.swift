/// Where rows land. `after`/`before` are the ids of the neighbours the client saw;
/// `index` (0...count) is the fallback.
///
/// Resolution (see ``BoardTransaction``): the list (and container) must exist and
/// `index`, if given, must be within `0...count` of the target's current rows
/// (all of them, as the client saw them). The gap is then taken right after
/// `after` if it is still a row of the target, else right before `before` if it
/// still is, else at `index` (gap `i` lies between rows `i-1` and `i`); rows
/// being moved are never used as neighbours (the nearest non-moving row on that
/// side is). With none of the three given, rows land at the end; with only
/// stale neighbours and no index the operation is a ``StoreError/conflict(_:)``.
public struct Placement: Sendable, Equatable {
    /// Target list.
    public var listID: String
    /// Target container row inside that list, or `nil` for top level.
    public var containerID: String?
    /// Id of the row the client saw just above the drop point.
    public var after: String?
    /// Id of the row the client saw just below the drop point.
    public var before: String?
    /// Insertion index in the client's view of the target (fallback).
    public var index: Int?

    public init(
        listID: String, containerID: String? = nil,
        after: String? = nil, before: String? = nil, index: Int? = nil
    ) {
        self.listID = listID
        self.containerID = containerID
        self.after = after
        self.before = before
        self.index = index
    }
}
