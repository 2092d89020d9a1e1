/// A row to insert; the store assigns its position and version.
public struct NewItem: Sendable, Equatable {
    /// Id of the new row; `nil` → a new lowercase UUID.
    public var id: String?
    /// App-defined kind.
    public var kind: String
    /// Visible title.
    public var title: String
    /// JSON object (validated by the store).
    public var payload: String

    public init(id: String? = nil, kind: String, title: String, payload: String = "{}") {
        self.id = id
        self.kind = kind
        self.title = title
        self.payload = payload
    }
}
