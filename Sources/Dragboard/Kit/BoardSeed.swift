/// What a new database starts with: the default board's lists, each with its rows in order, and
/// the contents of container rows. A value the kit declares; the store lays it down once, when
/// the board has no list yet.
public struct BoardSeed: Sendable {
    public var lists: [(list: ListRecord, items: [NewItem])]
    /// Container item id → its contents (containers need explicit ids; they may sit in containers).
    public var containers: [String: [NewItem]]

    public init(lists: [(ListRecord, [NewItem])], containers: [String: [NewItem]] = [:]) {
        self.lists = lists.map { (list: $0.0, items: $0.1) }
        self.containers = containers
    }
}
