/// A consistent picture of the whole board, read in one transaction.
public struct BoardSnapshot: Sendable {
    /// Board version the snapshot was read at.
    public var version: Int
    /// All lists, ordered by `position, id`.
    public var lists: [ListRecord]
    /// Top-level rows by list id, each ordered by `pos, id`.
    var rowsByList: [String: [ItemRecord]]
    /// Contents by container id, each ordered by `pos, id`.
    var contentsByContainer: [String: [ItemRecord]]

    /// Groups `items` (given in `pos, id` order) into lists and containers.
    public init(version: Int, lists: [ListRecord], items: [ItemRecord]) {
        self.version = version
        self.lists = lists
        var rows: [String: [ItemRecord]] = [:]
        var contents: [String: [ItemRecord]] = [:]
        for item in items {
            if let container = item.containerID {
                contents[container, default: []].append(item)
            } else {
                rows[item.listID, default: []].append(item)
            }
        }
        self.rowsByList = rows
        self.contentsByContainer = contents
    }

    /// Top-level rows of a list in display order (empty for an unknown list).
    public func rows(in listID: String) -> [ItemRecord] {
        rowsByList[listID] ?? []
    }

    /// Items inside a container row in display order (empty if none).
    public func contents(of containerID: String) -> [ItemRecord] {
        contentsByContainer[containerID] ?? []
    }

    /// The list with this id, if any.
    public func list(_ id: String) -> ListRecord? {
        lists.first { $0.id == id }
    }
}
