/// A container row as the delegate of its contents sees it when the kit builds the page's drop
/// targets: the row itself, the list it is in, and how many rows it holds now.
public struct BoardContainer: Sendable {
    /// The container row.
    public var item: BoardItem
    /// The list the container is a row of.
    public var list: ListRecord
    /// How many rows it holds (its direct contents).
    public var rowCount: Int

    public init(item: BoardItem, list: ListRecord, rowCount: Int) {
        self.item = item
        self.list = list
        self.rowCount = rowCount
    }

    /// The container's contents are a drop target of this id: the container row's own id.
    public var id: String { item.id }
    public var title: String { item.title }
}

extension BoardKit {
    /// Whether rows of kind `id` show their contents as a list of their own.
    public func hasContentsList(_ id: String) -> Bool {
        let kind = itemKind(id)
        guard kind.isContainer else { return false }
        // Asked of an empty stand-in: whether a kind has a contents delegate never depends on the row.
        let probe = BoardContainer(item: BoardItem(id: "", listID: "", kind: id, title: ""), list: ListRecord(id: "", title: "", kind: "", position: 0), rowCount: 0)
        return kind.contentsDropDelegate(for: probe) != nil
    }

    /// The row kinds whose contents are lists of their own.
    package var contentsListKinds: [String] { itemKinds.filter { hasContentsList($0.id) }.map(\.id) }
}
