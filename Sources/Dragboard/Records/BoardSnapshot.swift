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
    /// Total rows by list or container id, when the snapshot holds only the first rows of some.
    var counts: [String: Int]
    /// The board's labels, which its cards name by id.
    public var labels = BoardLabels()

    /// Groups `items` (given in `pos, id` order) into lists and containers.
    /// `counts` gives the total of each list or container whose rows `items` holds only in part.
    public init(version: Int, lists: [ListRecord], items: [ItemRecord], counts: [String: Int] = [:]) {
        self.version = version
        self.counts = counts
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

    /// How many rows a list (or a container) holds, including those this snapshot left out.
    public func rowCount(of id: String) -> Int {
        counts[id] ?? rowsByList[id]?.count ?? contentsByContainer[id]?.count ?? 0
    }

    /// The list with this id, if any.
    public func list(_ id: String) -> ListRecord? {
        lists.first { $0.id == id }
    }
}
