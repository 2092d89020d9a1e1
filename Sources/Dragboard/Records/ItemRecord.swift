/// One row of a list, or one item inside a container row.
public struct ItemRecord: Sendable, Equatable, Codable {
    /// Stable item id (used in the DOM as `data-item`).
    public var id: String
    /// The list the row belongs to (a container's contents share its list).
    public var listID: String
    /// The container row holding this item, or `nil` for a top-level row.
    public var containerID: String?
    /// Fractional order key (see ``OrderKey``); rows sort by `(pos, id)`.
    public var pos: String
    /// App-defined kind (see ``ItemKind``).
    public var kind: String
    /// Visible title.
    public var title: String
    /// JSON object with kind-specific data, e.g. `{"age":34}`.
    public var payload: String
    /// Board version of the last operation that changed this row.
    public var changedVersion: Int

    public init(
        id: String, listID: String, containerID: String?, pos: String,
        kind: String, title: String, payload: String, changedVersion: Int
    ) {
        self.id = id
        self.listID = listID
        self.containerID = containerID
        self.pos = pos
        self.kind = kind
        self.title = title
        self.payload = payload
        self.changedVersion = changedVersion
    }
}
