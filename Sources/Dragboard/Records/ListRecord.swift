/// One list of the board, as stored.
public struct ListRecord: Sendable, Equatable, Codable {
    /// Stable list id (used in the DOM as `data-list`).
    public var id: String
    /// Visible title.
    public var title: String
    /// App-defined kind (decides which delegate handles the list).
    public var kind: String
    /// Order of the list on the board (ascending).
    public var position: Int

    public init(id: String, title: String, kind: String, position: Int) {
        self.id = id
        self.title = title
        self.kind = kind
        self.position = position
    }
}
